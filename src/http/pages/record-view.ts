/**
 * Pieces of a record shared by the search results and the record page: the label that tells an
 * official rule from a lesson, method or offer, and the short provenance line of an official record.
 */
import type { Fact, Kind } from '../../core/records/record.js'
import { html, type Html } from './html.js'
import { KIND_LABELS_FR, provenanceOf } from './labels.js'

/** The record's address on this site. */
export const recordPath = (id: string): string => `/fiches/${id}`

/**
 * "Règle officielle" (green, §), or the kind with its reminder, "Leçon — explication, pas une règle
 * officielle" (amber), or a plain kind ("Organisation"). An unknown kind is shown as given.
 */
export function kindLabel(kind: Kind): Html {
  const label = KIND_LABELS_FR[kind]
  if (label === undefined) return html`<span class="label label-neutral">${kind}</span>`
  if (kind === 'fact') return html`<span class="label label-official">${label.name}</span>`
  if (label.note === undefined) return html`<span class="label label-neutral">${label.name}</span>`
  return html`<span class="label label-other">${label.name}<span class="note">— ${label.note}</span></span>`
}

/** Official sources named in a search result; the record's page lists them all. */
const MAX_LISTED_SOURCES = 3

/** "Sources officielles : A ; B. Vérifiée sur le texte officiel le 15 septembre 2026." — only for official records. */
export function provenanceSummary(record: Fact): Html | undefined {
  const p = provenanceOf(record)
  if (!p.official) return undefined
  const shown = p.officialSources.slice(0, MAX_LISTED_SOURCES).map((s) => s.label)
  const more = p.officialSources.length - shown.length
  const sources =
    shown.length === 0
      ? 'aucune indiquée'
      : `${shown.join(' ; ')}${more > 0 ? ` et ${more} autre${more > 1 ? 's' : ''}` : ''}`
  return html`<p class="provenance">${p.officialHeading} : ${sources}. ${p.verification}.${p.inForceSince === undefined ? '' : ` ${p.inForceSince}.`}</p>`
}
