/**
 * The home page: what the service is, who publishes it, the reuse conditions, the live record counts
 * per kind, and where to go next (search, guide, reference, OpenAPI document, MCP configuration).
 */
import type { Catalogue } from '../../core/api/schemas.js'
import { attributionLine } from '../../core/records/attribution.js'
import { KINDS, type Fact } from '../../core/records/record.js'
import { html, type Html } from './html.js'
import { KIND_LABELS_FR, fiches, frenchCount, frenchDate, frenchSpacing } from './labels.js'
import { renderPage, type Site } from './layout.js'
import { installLinks } from './install-links.js'
import { recordPath } from './record-view.js'
import { searchPath } from './search-params.js'

export type HomeData = {
  catalogue: Catalogue
  /** The organization records of the snapshot: who publishes the records. */
  publishers: readonly Fact[]
  /** The configured public base URL, to show absolute addresses; the page's origin otherwise. */
  publicBaseUrl?: string
}

/**
 * The discovery documents the catalogue links: llms.txt and the DCAT description always, the MCP
 * registry entry and card with an MCP endpoint, the sitemap and the Atom feed of the changes on a public base URL.
 */
function discoveryLinks(links: Catalogue['links']): Html[] {
  const documents = [
    {
      href: links.llms,
      text: html`<a href="${links.llms}">llms.txt</a> (résumé pour les modèles de langage)`,
    },
    { href: links.server_json, text: html`<a href="${links.server_json}">server.json</a> (registre MCP)` },
    { href: links.server_card, text: html`<a href="${links.server_card}">carte du serveur MCP</a>` },
    { href: links.sitemap, text: html`<a href="${links.sitemap}">plan du site</a> (sitemap.xml)` },
    {
      href: links.dcat,
      text: html`<a href="${links.dcat}">description DCAT</a> (pour les portails de données ouvertes)`,
    },
    {
      href: links.changes_atom,
      text: html`<a href="${links.changes_atom}">flux Atom des dernières modifications</a>`,
    },
  ].filter((d) => d.href !== undefined)
  return documents.map((d, i) => html`${i === 0 ? '' : i === documents.length - 1 ? ' et ' : ', '}${d.text}`)
}

export function renderHomePage(site: Site, data: HomeData): string {
  const { catalogue, publishers } = data
  const origin = data.publicBaseUrl ?? '{origin}'
  const mcpUrl =
    catalogue.links.mcp === undefined ? undefined : `${origin}${catalogue.links.mcp.slice(site.base.length)}`
  const mcpConfig =
    mcpUrl === undefined
      ? undefined
      : JSON.stringify({ mcpServers: { 'reference-records': { type: 'http', url: mcpUrl } } }, null, 2)
  // One-click installs need the endpoint's absolute address, known only from PUBLIC_BASE_URL.
  const install = mcpUrl === undefined || data.publicBaseUrl === undefined ? undefined : installLinks(mcpUrl)
  const publisher =
    publishers.length === 0
      ? html`l’éditeur des fiches`
      : publishers.map(
          (p, i) =>
            html`${i > 0 ? ', ' : ''}<a href="${site.base}${recordPath(p.id)}">${frenchSpacing(p.title)}</a>`,
        )
  const discovery = discoveryLinks(catalogue.links)
  const rows = KINDS.map((k) => ({ kind: k, count: catalogue.records.by_kind[k] })).filter((r) => r.count > 0)
  return renderPage(site, {
    title: 'Accueil',
    description:
      'Règles officielles du code de la route avec leurs sources, leçons, méthodes et offres d’une école de conduite : à chercher, lire et réutiliser.',
    section: 'home',
    body: html`<h1>Fiches de référence sur la conduite et le code de la route</h1>
<p class="lead">${fiches(catalogue.records.total)} publiées par ${publisher} : des <strong>règles officielles</strong> avec leurs textes de loi et leur date de vérification,
et, bien distinguées d’elles, des leçons, méthodes et offres qui les expliquent. À lire ici, ou à réutiliser par l’API et un serveur MCP, sans clé ni compte.</p>

<form class="search-form" role="search" method="get" action="${site.base}/recherche" data-tidy>
<div class="query"><label for="q">Chercher dans les fiches</label>
<div class="query-row"><input type="search" id="q" name="q" maxlength="300" placeholder="ex. alcoolémie permis probatoire"><button type="submit">Rechercher</button></div></div>
</form>

<div class="cards">
<section class="card" aria-labelledby="c-fiches"><h2 id="c-fiches">Les fiches</h2>
<div class="table-scroll"><table class="counts"><caption class="visually-hidden">Nombre de fiches par type</caption>
<thead><tr><th scope="col">Type</th><th scope="col">Fiches</th></tr></thead>
<tbody>${rows.map((r) => html`<tr><td><a href="${site.base}${searchPath({ kind: r.kind })}">${KIND_LABELS_FR[r.kind].plural}</a></td><td>${frenchCount(r.count)}</td></tr>`)}</tbody>
<tfoot><tr><th scope="row">Total</th><td>${frenchCount(catalogue.records.total)}</td></tr></tfoot></table></div>
${
  catalogue.records.to_reverify === undefined || catalogue.records.to_reverify === 0
    ? ''
    : html`<p class="small" data-reverify-count>Dont ${frenchCount(catalogue.records.to_reverify)} ${catalogue.records.to_reverify > 1 ? 'règles officielles' : 'règle officielle'} <strong>à revérifier</strong> : vérification de plus de 12 mois.</p>`
}
<p class="small muted">Données publiées le ${frenchDate(catalogue.updated_at)}.</p></section>

<section class="card" aria-labelledby="c-dev"><h2 id="c-dev">Pour les développeurs</h2>
<ul>
<li><a href="${site.base}/docs">Guide de l’API</a> (en anglais) : adresses, paramètres, erreurs, quota.</li>
<li><a href="${site.base}/reference">Référence interactive</a> : chaque opération, à essayer ici même.</li>
<li><a href="${catalogue.links.openapi}?po_live=1">Document OpenAPI 3.1</a> et <a href="${catalogue.links.self}?po_live=1">catalogue</a> (JSON).</li>
${discovery.length === 0 ? '' : html`<li>Pour les robots et les agents : ${discovery}.</li>`}
<li><a href="${site.base}/docs#mcp-tool-protocol-server">Serveur MCP</a> pour les agents d’IA${mcpConfig === undefined ? '' : ', à configurer ainsi :'}</li>
</ul>
${mcpConfig === undefined ? '' : html`<pre tabindex="0"><code data-origin>${mcpConfig}</code></pre>`}
${install === undefined ? '' : html`<p>Ou en un clic : <a href="${install.vscode}">installer dans VS Code</a>, <a href="${install.cursor}">installer dans Cursor</a>.</p>`}
<p class="small">Au plus ${catalogue.limits.requests_per_minute === 0 ? 'un nombre illimité de' : frenchCount(catalogue.limits.requests_per_minute)} requêtes par minute et par client, pages de recherche et fiches comprises.</p>
</section>
</div>

<section id="reutilisation" class="prose" aria-labelledby="reuse-title"><h2 id="reuse-title">Conditions de réutilisation</h2>
<p>Les fiches peuvent être consultées, citées et résumées, y compris dans des outils commerciaux, <strong>si l’attribution est visible et renvoie à la page de la fiche utilisée</strong> :</p>
<p><code>${attributionLine({ title: 'titre de la fiche', url: 'adresse de la fiche' })}</code></p>
<p>Conservez les références et réserves qui accompagnent une fiche, signalez vos adaptations, et gardez les règles officielles distinctes des explications, méthodes et offres.
Les documents et images de tiers gardent leurs propres conditions. Republier en entier un cours ou un article demande une autorisation préalable :
<a href="mailto:${catalogue.reuse.contact}">${catalogue.reuse.contact}</a>. L’accès ne vaut ni partenariat ni caution.</p>
</section>`,
  })
}
