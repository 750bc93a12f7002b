/**
 * How the search understood a query (the envelope's `interpretation`, issue 12): the words it
 * required, those it ignored, the corrections and other forms it used, and on zero results the
 * queries that would match, as links. Shown above the results so a person knows why they got them.
 */
import type { SearchEnvelope, SearchInterpretation } from '../../core/api/schemas.js'
import { html, type Html } from './html.js'
import { fiches, frenchCount } from './labels.js'

export type { SearchInterpretation }

/** The envelope's interpretation: present whenever the search had words (q). */
export const interpretationOf = (envelope: SearchEnvelope): SearchInterpretation | undefined =>
  envelope.interpretation

const quoted = (word: string) => `« ${word} »`
/** « a », « a » et « b », « a », « b » et « c »: a French list, as a sentence reads it. */
export const quotedList = (words: readonly string[]): string => {
  const all = words.map(quoted)
  return all.length < 2 ? all.join('') : `${all.slice(0, -1).join(', ')} et ${all.at(-1)!}`
}
/** What the first results lack: pas « a », ni « a » ni « b ». */
const lacking = (words: readonly string[]) =>
  words.length === 1 ? `pas ${quoted(words[0]!)}` : words.map((w) => `ni ${quoted(w)}`).join(' ')

/** `searchHref(q)`: the address of the same search (same filters) with another query. */
export function renderInterpretation(
  interpretation: SearchInterpretation,
  total: number,
  searchHref: (q: string) => string,
): Html {
  const {
    words,
    ignored,
    corrected,
    expanded,
    relaxed,
    left_out: leftOut = [],
    matched = [],
  } = interpretation
  const lines: Html[] = []
  for (const c of corrected) {
    lines.push(
      html`<p>Aucune fiche ne contient ${quoted(c.from)} : la recherche a utilisé <strong>${quoted(c.to)}</strong> à la place.</p>`,
    )
  }
  for (const e of expanded) {
    const forms = e.with.length === 1 ? 'sous la forme' : 'sous les formes'
    lines.push(html`<p>${quoted(e.word)} a aussi été cherché ${forms} ${quotedList(e.with)}.</p>`)
  }
  if (ignored.length === 1) lines.push(html`<p>Mot ignoré, trop courant : ${quoted(ignored[0]!)}.</p>`)
  if (ignored.length > 1) lines.push(html`<p>Mots ignorés, trop courants : ${quotedList(ignored)}.</p>`)
  // Best match: no record holds every word, so the first ones hold the most of them.
  if (leftOut.length > 0 && matched.length > 0) {
    const first =
      total === 1 ? 'la première fiche contient' : `les ${frenchCount(total)} premières fiches contiennent`
    lines.push(
      html`<p>Aucune fiche ne contient tous ces mots : ${first} ${quotedList(matched)}, mais ${lacking(leftOut)} ; les suivantes en contiennent moins.</p>`,
    )
  }
  if (total === 0 && words.length === 1) {
    lines.push(
      html`<p>Aucune fiche ne contient ${quoted(words[0]!)} : vérifiez l’orthographe ou essayez un autre mot.</p>`,
    )
  } else if (total === 0 && words.length > 1) {
    lines.push(html`<p>Aucune fiche ne contient à la fois ${quotedList(words)}.</p>`)
    lines.push(
      relaxed.length === 0
        ? html`<p>Aucune fiche ne contient non plus une partie de ces mots : vérifiez l’orthographe ou essayez d’autres mots.</p>`
        : html`<p>Essayez plutôt :</p><ul>${relaxed.map(
            (r) =>
              html`<li><a href="${searchHref(r.q)}">${r.q}</a> — sans ${quoted(r.without)}, ${fiches(r.total)}</li>`,
          )}</ul>`,
    )
  }
  if (lines.length === 0) return html``
  return html`<section class="interpretation" aria-labelledby="interpretation-title">
<h2 id="interpretation-title" class="visually-hidden">Comment la recherche a été comprise</h2>
${words.length > 0 ? html`<p>Mots cherchés : <strong>${words.join(' ')}</strong></p>` : ''}
${lines}
</section>`
}
