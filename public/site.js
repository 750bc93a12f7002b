// Progressive enhancements of the pages; everything works without them.
// Served from this origin under the pages' Content-Security-Policy (script-src 'self').
'use strict'

/** Copy buttons on code blocks (the guide) and on elements marked data-copy (the record's citation). */
function addCopyButtons() {
  const targets = [...document.querySelectorAll('pre > code'), ...document.querySelectorAll('[data-copy]')]
  for (const target of targets) {
    const button = document.createElement('button')
    button.type = 'button'
    const block = target.closest('pre')
    button.className = block ? 'copy' : 'copy copy-inline'
    // The visible word and, for screen readers, what it copies; the name always contains the visible text.
    const word = document.createElement('span')
    word.textContent = 'Copier'
    const what = document.createElement('span')
    what.className = 'visually-hidden'
    what.textContent = block ? ' le code' : ' la citation'
    button.append(word, what)
    button.addEventListener('click', () => copy(target.textContent || '', word))
    if (block) block.append(button)
    else target.after(button)
  }
}

async function copy(text, word) {
  try {
    await navigator.clipboard.writeText(text)
  } catch {
    // Without the asynchronous clipboard (a page served over plain HTTP), fall back to a selection.
    const area = document.createElement('textarea')
    area.value = text
    area.setAttribute('readonly', '')
    area.className = 'visually-hidden'
    document.body.append(area)
    area.select()
    document.execCommand('copy')
    area.remove()
  }
  word.textContent = 'Copié'
  setTimeout(() => (word.textContent = 'Copier'), 1500)
}

/** The search form leaves empty fields out of the address, so shared links stay short. */
function tidySearchForms() {
  for (const form of document.querySelectorAll('form[data-tidy]')) {
    form.addEventListener('submit', () => {
      for (const field of form.querySelectorAll('input[name], select[name]'))
        if (field.value === '') field.disabled = true
      // Re-enable after the navigation starts, so the back button shows the form as it was.
      setTimeout(() => form.querySelectorAll('[disabled]').forEach((f) => (f.disabled = false)), 0)
    })
  }
}

/** Addresses shown for copying (the MCP configuration) use this page's origin when none is configured. */
function fillOrigin() {
  for (const el of document.querySelectorAll('[data-origin]'))
    el.textContent = el.textContent.replace('{origin}', location.origin)
}

fillOrigin()
addCopyButtons()
tidySearchForms()
