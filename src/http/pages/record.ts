/**
 * A record's page, `/fiches/{id}`: the full text, what kind of record it is, its provenance (official
 * sources, verification, entry into force; other sources apart), related records (linked here when
 * they are records of this snapshot), and how to cite it.
 */
import type { Fact } from '../../core/records/record.js'
import { attributionLine } from '../../core/records/attribution.js'
import {
  REVERIFY_AFTER_MONTHS,
  REVERIFY_PHRASE,
  ageInWords,
  needsReverification,
} from '../../core/records/status.js'
import { html, type Html } from './html.js'
import {
  KIND_LABELS_FR,
  SOURCE_TYPE_FR,
  frenchDate,
  frenchDuration,
  frenchSpacing,
  provenanceOf,
} from './labels.js'
import { renderPage, type Site } from './layout.js'
import { citationText, recordCsl, recordHeadTags, type Publisher } from './record-metadata.js'
import { kindLabel, recordPath } from './record-view.js'
import { searchPath } from './search-params.js'

/** Where a related record's page is on this site, by its original address (undefined: not a record here). */
type RelatedLookup = (url: string) => string | undefined

/** What a record page needs besides the record: who publishes it, and today (for a verification's age). */
export type RecordPageContext = { related: RelatedLookup; publisher: Publisher; now: Date }

const sourceItem = (s: Fact['sources'][number], withType: boolean) =>
  html`<li><a href="${s.url}">${s.label}</a>${withType ? ` (${SOURCE_TYPE_FR[s.type]})` : ''}</li>`

/** "il y a 4 mois", and for an official rule past the threshold, the flag that says to re-read the text. */
function verificationAge(record: Fact, now: Date): Html {
  if (record.verified_at === undefined) return html``
  const age = html` <span class="muted">(${ageInWords(record.verified_at, now)})</span>`
  if (!needsReverification(record, now)) return age
  return html`${age}<br><strong class="label label-other" data-reverify>${REVERIFY_PHRASE}</strong> <span class="small">vérification de plus de ${REVERIFY_AFTER_MONTHS} mois : le texte officiel a pu changer depuis.</span>`
}

function provenancePanel(record: Fact, now: Date): Html {
  const p = provenanceOf(record)
  if (!p.official && p.verification === undefined && p.inForceSince === undefined) return html``
  return html`<section class="panel${p.official ? ' panel-official' : ''}" aria-labelledby="provenance">
<h2 id="provenance">${p.official ? (record.kind === 'fact' ? 'Texte officiel et vérification' : 'Textes officiels cités') : 'Vérification'}</h2>
${
  p.official
    ? html`<p>${p.officialHeading}${p.officialSources.length === 0 ? ' : aucune indiquée.' : ' :'}</p>
${p.officialSources.length === 0 ? '' : html`<ul>${p.officialSources.map((s) => sourceItem(s, false))}</ul>`}`
    : ''
}
<dl class="facts">
${p.verification === undefined ? '' : html`<dt>Vérification</dt><dd>${p.verification}${verificationAge(record, now)}${p.verificationScope === undefined ? '' : html`<br><span class="muted">Portée : ${p.verificationScope}</span>`}</dd>`}
${p.inForceSince === undefined ? '' : html`<dt>Entrée en vigueur</dt><dd>${p.inForceSince}</dd>`}
</dl>
${record.kind === 'fact' ? html`<p class="small muted">En cas de doute, seul le texte officiel fait foi.</p>` : ''}
</section>`
}

/** Structured data of organizations, people and offers, as far as the schema names it. */
function details(record: Fact): Html {
  const rows: [string, string][] = []
  const org = record.organization_data
  if (org?.legal_name) rows.push(['Raison sociale', org.legal_name])
  if (typeof org?.address === 'string') rows.push(['Adresse', org.address])
  if (org?.telephone) rows.push(['Téléphone', org.telephone])
  if (record.person_data?.job_title) rows.push(['Fonction', record.person_data.job_title])
  if (record.person_data?.affiliation) rows.push(['Rattachement', record.person_data.affiliation])
  const offer = record.offer_data
  if (offer?.price !== undefined)
    rows.push([
      'Prix',
      `${offer.price}${offer.price_currency === undefined ? '' : ` ${offer.price_currency}`}`,
    ])
  if (offer?.valid_from) rows.push(['Valable à partir du', frenchDate(offer.valid_from)])
  if (offer?.valid_through) rows.push(['Valable jusqu’au', frenchDate(offer.valid_through)])
  if (record.chapter) rows.push(['Chapitre', `${record.chapter.number} — ${record.chapter.title}`])
  if (record.evidence_kind)
    rows.push([
      'Nature',
      { product: 'produit', method: 'méthode', declaration: 'déclaration', analysis: 'analyse' }[
        record.evidence_kind
      ],
    ])
  if (rows.length === 0) return html``
  return html`<dl class="facts">${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`
}

function listPanel(id: string, title: string, items: Html[]): Html {
  if (items.length === 0) return html``
  return html`<section class="panel" aria-labelledby="${id}"><h2 id="${id}">${title}</h2><ul>${items}</ul></section>`
}

/** The "Citer cette fiche" panel: the attribution line, a text citation and CSL-JSON, each to copy. */
function citePanel(site: Site, record: Fact, publisher: Publisher): Html {
  const csl = JSON.stringify([recordCsl(record, publisher)], null, 2)
  return html`<section class="panel" aria-labelledby="citer"><h2 id="citer">Citer cette fiche</h2>
<p class="cite"><code data-copy>${attributionLine(record)}</code></p>
<p class="small">L’attribution demandée pour toute réutilisation. Pour une bibliographie :</p>
<p class="cite"><code data-copy data-citation="text">${citationText(record, publisher, frenchDate)}</code></p>
<details><summary>CSL-JSON (Zotero, Pandoc, citeproc)</summary>
<pre tabindex="0"><code data-citation="csl-json">${csl}</code></pre></details>
<p class="small">Page d’origine : <a href="${record.url}">${record.url}</a>. La même fiche en JSON : <a href="${site.base}/api/v1/facts/${record.id}?po_live=1">/api/v1/facts/${record.id}</a>.
<a href="${site.base}/#reutilisation">Conditions de réutilisation</a>.</p>
${record.modified_at === undefined ? '' : html`<p class="small muted">Dernière modification le ${frenchDate(record.modified_at)} (une modification n’est pas une vérification).</p>`}
</section>`
}

export function renderRecordPage(site: Site, record: Fact, context: RecordPageContext): string {
  const { related, publisher, now } = context
  const p = provenanceOf(record)
  const kind = KIND_LABELS_FR[record.kind]
  const paragraphs = record.text.split(/\n+/).filter((t) => t.trim() !== '')
  const relatedItems = (record.related ?? []).map((r) => {
    const here = related(r.url)
    return html`<li><a href="${here === undefined ? r.url : site.base + here}">${r.title}</a>${r.text === '' ? '' : ` — ${r.text}`}</li>`
  })
  return renderPage(site, {
    title: record.title,
    description: record.description ?? record.text.slice(0, 160),
    canonical: recordPath(record.id),
    head: recordHeadTags(record, publisher),
    body: html`<nav class="small" aria-label="Fil d’Ariane"><a href="${site.base}${searchPath({})}">Recherche</a> ›
<a href="${site.base}${searchPath({ kind: record.kind })}">${kind?.plural ?? record.kind}</a></nav>
<article class="record" lang="fr">
<header class="record-header">${kindLabel(record.kind)}<h1>${frenchSpacing(record.title)}</h1>
${record.description === undefined ? '' : html`<p class="lead">${record.description}</p>`}</header>
${p.official ? provenancePanel(record, now) : ''}
<div class="record-text">${paragraphs.map((t) => html`<p>${t}</p>`)}</div>
${details(record)}
${record.video?.url ? html`<p>Vidéo : <a href="${record.video.url}">${record.video.title ?? 'voir la vidéo'}</a>${record.video.duration ? ` (${frenchDuration(record.video.duration)})` : ''}</p>` : ''}
${p.official ? '' : provenancePanel(record, now)}
${listPanel(
  'autres-sources',
  p.official ? 'Autres sources (pas des textes officiels)' : 'Sources',
  p.otherSources.map((s) => sourceItem(s, true)),
)}
${listPanel(
  'bibliographie',
  'Bibliographie',
  (record.bibliography ?? []).map((b) => html`<li>${b}</li>`),
)}
${listPanel('liees', 'Fiches liées', relatedItems)}
${citePanel(site, record, publisher)}
</article>`,
  })
}
