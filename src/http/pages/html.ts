/**
 * HTML from template literals, escaped by default: every interpolated value is escaped unless it is
 * already `Html`. Written here rather than taken from a template engine because the pages need only
 * this (five small views, no partials or loops a `.map` cannot do), and a second template language
 * would hide the escaping rule that matters: record texts come from a file, never trusted as markup.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value
  }
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Escapes text for an element's content or a quoted attribute value. */
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)

/** What a template accepts: markup, text (escaped), nothing (undefined, null, false), or a list of those. */
export type HtmlValue = Html | string | number | undefined | null | false | readonly HtmlValue[]

function render(value: HtmlValue): string {
  if (value === undefined || value === null || value === false) return ''
  if (value instanceof Html) return value.value
  if (Array.isArray(value)) return value.map(render).join('')
  return escapeHtml(String(value))
}

/** `html\`<p>${text}</p>\`` escapes `text`; nested `html` fragments are kept as they are. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!
  return new Html(out)
}

/** Markup produced by a trusted renderer (the Markdown library), kept as it is. */
export const trusted = (markup: string): Html => new Html(markup)
