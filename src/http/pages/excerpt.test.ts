import { describe, expect, it } from 'vitest'
import { excerpt, foldedWords, highlight, marked } from './excerpt.js'
import { html } from './html.js'

const matches = (parts: { text: string; match: boolean }[]) => parts.filter((p) => p.match).map((p) => p.text)

describe('highlight', () => {
  it('marks the words the index matched: accents, case, ligatures and plurals folded as the index folds them', () => {
    const words = foldedWords(['priorite', 'coeur', 'panneau'])
    expect(matches(highlight('Les Priorités du CŒUR de ville et ses panneaux', words))).toEqual(['Priorités', 'CŒUR', 'panneaux'])
  })
  it('marks whole words only, and elided words after their apostrophe', () => {
    const words = foldedWords(['autoroute'])
    expect(matches(highlight("Sur l'autoroute, les autoroutiers", words))).toEqual(['autoroute'])
  })
  it('keeps the text whole around the marks', () => {
    const parts = highlight('Vitesse en agglomération', foldedWords(['agglomeration']))
    expect(parts).toEqual([
      { text: 'Vitesse en ', match: false },
      { text: 'agglomération', match: true },
    ])
  })
})

describe('excerpt', () => {
  const long = `${'Début sans intérêt. '.repeat(20)}Ici la vitesse est limitée. ${'Suite sans intérêt. '.repeat(20)}`
  it('cuts around the searched words, at word boundaries, with ellipses where it cut', () => {
    const parts = excerpt(long, foldedWords(['vitesse']), 120)
    const text = parts.map((p) => p.text).join('')
    expect(text.startsWith('… ')).toBe(true)
    expect(text.endsWith(' …')).toBe(true)
    expect(matches(parts)).toEqual(['vitesse'])
    expect(text.length).toBeLessThanOrEqual(124)
    expect(text.slice(2)).toMatch(/^(Début|intérêt\.|sans) /) // a whole word, never a piece of one
  })
  it('prefers the passage holding the most distinct searched words', () => {
    const text = `La vitesse seule. ${'Rien. '.repeat(40)}Ici vitesse et agglomération ensemble.`
    const parts = excerpt(text, foldedWords(['vitesse', 'agglomération']), 80)
    expect(matches(parts)).toEqual(['vitesse', 'agglomération'])
  })
  it('starts at the beginning when nothing matched, and keeps a short text whole', () => {
    expect(excerpt('Un texte court.\nSur deux lignes.', new Set())).toEqual([{ text: 'Un texte court. Sur deux lignes.', match: false }])
  })
})

it('renders marks and escapes the text around them', () => {
  const parts = highlight('<b>vitesse</b> & co', foldedWords(['vitesse']))
  expect(marked(parts).value).toBe('&lt;b&gt;<mark>vitesse</mark>&lt;/b&gt; &amp; co')
  expect(html`<p title="${'"x"'}">${html`<i>ok</i>`}${undefined}${false}${['a', 1]}</p>`.value).toBe('<p title="&quot;x&quot;"><i>ok</i>a1</p>')
})
