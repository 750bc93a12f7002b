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
const quotedList = (words: readonly string[]): string => {
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
  // What changes the answer is said at once (corrections, words left out, zero results); how each
  // word was read (its other forms, the words ignored) is folded under the words searched, so that
  // on a phone the explanation never pushes the first result below the first screen.
  const lines: Html[] = []
  const details: Html[] = []
  if (corrected.length === 1) {
    const [c] = corrected as [{ from: string; to: string }]
    lines.push(
      html`<p>Aucune fiche ne contient ${quoted(c.from)} : la recherche a utilisé <strong>${quoted(c.to)}</strong> à la place.</p>`,
    )
  } else if (corrected.length > 1) {
    // One line for all of them, as a search engine says it: what was typed, and what was searched.
    lines.push(
      html`<p>Aucune fiche ne contient ces mots tels qu’écrits ; cherchés à la place : ${corrected.map(
        (c, i) =>
          html`${i === 0 ? '' : i === corrected.length - 1 ? ' et ' : ', '}${quoted(c.from)} → <strong>${quoted(c.to)}</strong>`,
      )}.</p>`,
    )
  }
  for (const e of expanded) {
    const forms = e.with.length === 1 ? 'sous la forme' : 'sous les formes'
    details.push(html`<p>${quoted(e.word)} a aussi été cherché ${forms} ${quotedList(e.with)}.</p>`)
  }
  if (ignored.length === 1) details.push(html`<p>Mot ignoré, trop courant : ${quoted(ignored[0]!)}.</p>`)
  if (ignored.length > 1) details.push(html`<p>Mots ignorés, trop courants : ${quotedList(ignored)}.</p>`)
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
  if (lines.length === 0 && details.length === 0) return html``
  const searched = words.length > 0 ? html`Mots cherchés : <strong>${words.join(' ')}</strong>` : html``
  return html`<section class="interpretation" aria-labelledby="interpretation-title">
<h2 id="interpretation-title" class="visually-hidden">Comment la recherche a été comprise</h2>
${details.length === 0 ? (words.length > 0 ? html`<p>${searched}</p>` : '') : html`<details><summary>${words.length > 0 ? searched : 'Comment la recherche a lu ces mots'}</summary>${details}</details>`}
${lines}
</section>`
}
