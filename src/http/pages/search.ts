/**
 * The search page, `/recherche`: rendered on the server from the core's search (works without
 * JavaScript, one citable address per search), cached per snapshot, counted in the client's quota.
 */
import type { SearchEnvelope } from '../../core/api/schemas.js'
import type { Fact } from '../../core/records/record.js'
import { attributionLine } from '../../core/records/attribution.js'
import { KINDS } from '../../core/records/record.js'
import { excerpt, excerptSource, highlight, searchedWords } from '../../core/search/excerpt.js'
import { marked } from './excerpt.js'
import { html, type Html } from './html.js'
import { interpretationOf, renderInterpretation } from './interpretation.js'
import { KIND_LABELS_FR, REGION_LABELS_FR, fiches, frenchCount, frenchSpacing } from './labels.js'
import { renderPage, type Site } from './layout.js'
import { kindLabel, provenanceSummary, recordPath } from './record-view.js'
import { MAX_PAGE, PAGE_SIZE, SEARCH_PATH, searchPath, type SearchPageParams } from './search-params.js'

function searchForm(site: Site, params: SearchPageParams): Html {
  const option = (value: string, label: string, selected: boolean) =>
    html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`
  return html`<form class="search-form" role="search" method="get" action="${site.base}${SEARCH_PATH}" data-tidy>
<div class="query"><label for="q">Mots à chercher</label>
<div class="query-row"><input type="search" id="q" name="q" value="${params.q ?? ''}" maxlength="300" autocomplete="off" placeholder="ex. priorité à droite">
<button type="submit">Rechercher</button></div></div>
<div><label for="kind">Type de fiche</label><select id="kind" name="kind">
${option('', 'Tous les types', params.kind === undefined)}
${KINDS.map((k) => option(k, KIND_LABELS_FR[k].name, params.kind === k))}
</select></div>
<div><label for="region">Région</label><select id="region" name="region">
${option('', 'Toutes les régions', params.region === undefined)}
${option('france', REGION_LABELS_FR.france, params.region === 'france')}
</select></div>
</form>`
}

/** The core's attribution line, its address a link. */
function attribution(record: Fact): Html {
  const line = attributionLine(record)
  const at = line.lastIndexOf(record.url)
  return html`<p class="attribution">${line.slice(0, at)}<a href="${record.url}">${record.url}</a></p>`
}

/** `lacking`: under best match, the searched words this record does not hold (none when it holds them all). */
function result(site: Site, record: Fact, words: ReadonlySet<string>, lacking: readonly string[]): Html {
  const link = site.base + recordPath(record.id)
  return html`<li class="result"><article aria-labelledby="r-${record.id}">
${kindLabel(record.kind)}
<h3 id="r-${record.id}"><a href="${link}">${marked(highlight(frenchSpacing(record.title), words))}</a></h3>
<p class="excerpt">${marked(excerpt(excerptSource(record, words), words))}</p>
${lacking.length === 0 ? '' : html`<p class="lacking small muted">Ne contient pas : ${lacking.map((w) => `« ${w} »`).join(' ni ')}</p>`}
${provenanceSummary(record)}
${attribution(record)}
</article></li>`
}

/**
 * What a page knows of the results: under best match they go on past `total` (the records holding
 * the best-matched words) with records holding fewer of them, and how far is known only page by page.
 * `more`: a result exists after this page (the route asks for one more than it shows).
 */
type Reach = { total: number; pastTotal: boolean; last: number }

function reachOf(params: SearchPageParams, envelope: SearchEnvelope, more: boolean): Reach {
  const { total, offset, results } = envelope
  const shownTo = offset + results.length
  const pastTotal = results.length > 0 && (shownTo > total || (more && shownTo >= total))
  // The last page known to exist: the one holding the total-th record, or the next one when more are known.
  const known = Math.ceil(total / PAGE_SIZE)
  const last = Math.min(MAX_PAGE, Math.max(1, known, results.length > 0 ? params.page + (more ? 1 : 0) : 1))
  return { total, pastTotal, last }
}

function pager(site: Site, params: SearchPageParams, reach: Reach): Html {
  const last = reach.last
  if (last === 1) return html``
  const link = (page: number, label: string | number, rel?: string) =>
    html`<a href="${site.base}${searchPath({ ...params, page })}"${rel === undefined ? '' : html` rel="${rel}"`}>${label}</a>`
  const shown = [
    ...new Set([1, params.page - 2, params.page - 1, params.page, params.page + 1, params.page + 2, last]),
  ]
    .filter((p) => p >= 1 && p <= last)
    .sort((a, b) => a - b)
  const items: Html[] = []
  shown.forEach((p, i) => {
    if (i > 0 && p > shown[i - 1]! + 1) items.push(html`<span aria-hidden="true">…</span>`)
    items.push(p === params.page ? html`<span aria-current="page">${p}</span>` : link(p, p))
  })
  return html`<nav class="pager" aria-label="Pages de résultats">
${params.page > 1 ? link(Math.min(params.page - 1, last), '← Précédente', 'prev') : ''}
${items}
${params.page < last ? link(params.page + 1, 'Suivante →', 'next') : ''}
</nav>`
}

function summary(
  params: SearchPageParams,
  reach: Reach,
  matched: readonly string[],
  searched: number,
): string {
  const filters = [
    params.kind === undefined ? '' : KIND_LABELS_FR[params.kind].plural,
    params.region === undefined ? '' : REGION_LABELS_FR[params.region],
  ]
    .filter((f) => f !== '')
    .join(', ')
  const { total } = reach
  const scope = `${params.q === undefined ? '' : ` pour « ${params.q} »`}${filters === '' ? '' : ` (${filters})`}`
  // Best match past its total: the count is of the records holding the matched words, not of the list.
  // The words are those of the query (in the search box above), so the line names none of them.
  if (reach.pastTotal && matched.length > 0) {
    const filtered = filters === '' ? '' : ` (${filters})`
    const hold = total === 1 ? 'contient' : 'contiennent'
    const words =
      matched.length >= searched
        ? searched === 1
          ? 'le mot cherché'
          : 'tous les mots cherchés'
        : `${frenchCount(matched.length)} des ${frenchCount(searched)} mots cherchés`
    return `${fiches(total)}${filtered} ${hold} ${words}, puis des fiches qui en contiennent moins — page ${frenchCount(params.page)}`
  }
  return [
    `${fiches(total)}${scope}`,
    reach.last > 1 ? ` — page ${frenchCount(params.page)} sur ${frenchCount(reach.last)}` : '',
  ].join('')
}

/**
 * The other way to combine the words, when it would change the answer: from best match, the records
 * holding every word only (there are fewer); from all-words, the records holding the most of them.
 */
function matchSwitch(site: Site, params: SearchPageParams, envelope: SearchEnvelope): Html {
  const i = envelope.interpretation
  if (i === undefined || i.words.length < 2) return html``
  if (params.match === 'all') {
    return envelope.total === 0
      ? html`<p><a href="${site.base}${searchPath({ ...params, match: undefined, page: 1 })}">Voir les fiches qui contiennent le plus de ces mots</a></p>`
      : html``
  }
  return (i.left_out ?? []).length > 0 && envelope.total > 0
    ? html`<p class="small"><a href="${site.base}${searchPath({ ...params, match: 'all', page: 1 })}">Chercher seulement les fiches qui contiennent tous les mots</a></p>`
    : html``
}

/**
 * The page of one search: form, how the query was understood, results, paging, attribution. `more`:
 * a result exists after this page (under best match, past `total`, only the caller can know it).
 */
export function renderSearchPage(
  site: Site,
  params: SearchPageParams,
  envelope: SearchEnvelope,
  more = false,
): string {
  const interpretation = interpretationOf(envelope)
  const reach = reachOf(params, envelope, more)
  const matched =
    interpretation === undefined
      ? []
      : (interpretation.matched ?? []).length > 0
        ? interpretation.matched!
        : interpretation.words
  // The words the search required, and the other forms and aliases it matched: what to highlight.
  const words = searchedWords(interpretation)
  const searchHref = (q: string) => site.base + searchPath({ ...params, q, page: 1 })
  const beyond = envelope.results.length === 0 && envelope.total > 0
  const lacking = new Map((interpretation?.missing ?? []).map((m) => [m.id, m.words]))
  return renderPage(site, {
    title: params.q === undefined ? 'Rechercher dans les fiches' : `« ${params.q} » — Recherche`,
    description: 'Chercher dans les règles officielles, leçons, méthodes et offres, avec leurs sources.',
    section: 'search',
    canonical: searchPath(params),
    noindex: params.q !== undefined,
    // With a query, the results are the page: its heading stays for screen readers and leaves the
    // first screen of a phone to the form and the first results.
    body: html`<h1${params.q === undefined ? '' : html` class="visually-hidden"`}>Rechercher dans les fiches</h1>
${searchForm(site, params)}
${interpretation === undefined ? '' : renderInterpretation(interpretation, envelope.total, searchHref)}
${matchSwitch(site, params, envelope)}
<h2 class="summary" id="resultats">${summary(params, reach, matched, interpretation?.words.length ?? 0)}</h2>
${envelope.total === 0 && interpretation === undefined ? html`<p>Aucune fiche ne correspond. Essayez d’autres mots${params.kind || params.region ? html`, ou <a href="${searchHref(params.q ?? '')}">tous les types et régions</a>` : ''}.</p>` : ''}
${envelope.total === 0 && interpretation !== undefined && (params.kind || params.region) ? html`<p><a href="${site.base}${searchPath({ q: params.q })}">Chercher dans tous les types et régions</a></p>` : ''}
${beyond ? html`<p>Cette page est au-delà des résultats. <a href="${site.base}${searchPath({ ...params, page: 1 })}">Revenir à la première page</a>.</p>` : ''}
<ol class="results" start="${envelope.offset + 1}">${envelope.results.map((r) => result(site, r, words, lacking.get(r.id) ?? []))}</ol>
${pager(site, params, reach)}
<p class="muted small">Les règles officielles (§) citent leurs textes et la date de leur dernière vérification ; les leçons, méthodes et offres les expliquent ou les vendent, sans les remplacer.
Pour réutiliser une fiche, citez-la ainsi : « ${attributionLine({ title: 'titre de la fiche', url: 'adresse de la fiche' })} » (<a href="${site.base}/#reutilisation">conditions</a>).</p>`,
  })
}
