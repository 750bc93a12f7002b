/**
 * The frame every page shares: head (stylesheet, icon, description), a skip link, the site's
 * navigation, the footer with the reuse conditions' link. Pages are in French; the guide's article
 * says it is in English with its own `lang`.
 */
import { html, type Html } from './html.js'
import type { Assets } from './assets.js'

/** What every page needs to build its links. */
export type Site = {
  /** The public base URL (origin and path prefix) every link starts with, or '' for root-relative links. */
  base: string
  assets: Assets
}

type Section = 'home' | 'search' | 'docs' | 'reference'

export type PageOptions = {
  title: string
  description?: string
  /** Which navigation entry is the current page. */
  section?: Section
  /** Canonical address (path and query), for a search reachable under several spellings. */
  canonical?: string
  /** Extra stylesheets and scripts (the reference's); the site's own are always there. */
  stylesheets?: string[]
  scripts?: string[]
  /** Replaces the site's own script (the reference runs Swagger UI's instead). */
  siteScript?: boolean
  /** Keeps robots out of pages that are one of countless parameter combinations. */
  noindex?: boolean
  /** Further `<head>` content: a record's structured data and citation tags. */
  head?: Html
  body: Html
}

const NAV: readonly { section: Section; path: string; label: string }[] = [
  { section: 'home', path: '/', label: 'Accueil' },
  { section: 'search', path: '/recherche', label: 'Rechercher' },
  { section: 'docs', path: '/docs', label: 'Guide de l’API' },
  { section: 'reference', path: '/reference', label: 'Référence interactive' },
]

export function renderPage(site: Site, page: PageOptions): string {
  const nav = NAV.map(
    (n) =>
      html`<li><a href="${site.base}${n.path}"${n.section === page.section ? html` aria-current="page"` : ''}>${n.label}</a></li>`,
  )
  const styles = [site.assets.url('site.css'), ...(page.stylesheets ?? [])]
  const scripts = [
    ...(page.siteScript === false ? [] : [site.assets.url('site.js')]),
    ...(page.scripts ?? []),
  ]
  return html`<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} — Fiches de référence</title>
${page.description === undefined ? '' : html`<meta name="description" content="${page.description}">`}
${page.canonical === undefined ? '' : html`<link rel="canonical" href="${site.base}${page.canonical}">`}
${page.noindex ? html`<meta name="robots" content="noindex">` : ''}
${page.head ?? ''}
<link rel="icon" href="${site.assets.url('icon.svg')}" type="image/svg+xml">
${styles.map((href) => html`<link rel="stylesheet" href="${href}">`)}
${scripts.map((src) => html`<script src="${src}" defer></script>`)}
</head>
<body>
<a class="skip" href="#contenu">Aller au contenu</a>
<header class="site-header"><div class="bar">
<a class="brand" href="${site.base}/"><img src="${site.assets.url('icon.svg')}" alt="" width="28" height="28">Fiches de référence</a>
<nav class="site-nav" aria-label="Navigation principale"><ul>${nav}</ul></nav>
</div></header>
<main id="contenu" tabindex="-1">
${page.body}
</main>
<footer class="site-footer"><div class="bar">
<p>Fiches publiques en lecture seule, aussi disponibles par <a href="${site.base}/api/v1/?po_live=1">l’API</a> (JSON),
son <a href="${site.base}/api/v1/openapi.json?po_live=1">document OpenAPI</a> et un serveur MCP.
Réutilisation libre avec attribution : <a href="${site.base}/#reutilisation">conditions</a>.</p>
</div></footer>
</body>
</html>
`.value
}
