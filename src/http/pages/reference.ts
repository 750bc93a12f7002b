/**
 * The interactive API reference: Swagger UI (swagger-ui-dist, served by this service from its npm
 * package) over the served OpenAPI document, with "try it" sending real requests to the same origin.
 * Why Swagger UI: its "try it" works from static files with a strict Content-Security-Policy (no
 * inline script or style, no other host); Redoc's open-source build has no "try it", and Scalar's
 * bundle injects its styles inline and loads fonts from its own servers unless reconfigured.
 */
import { html } from './html.js'
import { renderPage, type Site } from './layout.js'

/** The reference's policy: its scripts and styles from this origin, requests ("try it") to this origin only. */
export const REFERENCE_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "font-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"

export function renderReferencePage(site: Site): string {
  return renderPage(site, {
    title: 'Référence interactive de l’API',
    description:
      'Every operation of the API, its parameters, answers and examples, with “Try it out” against this service.',
    section: 'reference',
    stylesheets: [site.assets.url('swagger-ui.css'), site.assets.url('reference.css')],
    scripts: [site.assets.url('swagger-ui-bundle.js'), site.assets.url('reference.js')],
    siteScript: false,
    body: html`<h1>Référence interactive de l’API</h1>
<p class="lead">Chaque opération, ses paramètres, ses réponses et leurs exemples, tirés du <a href="${site.base}/api/v1/openapi.json?po_live=1">document OpenAPI</a> servi.
« Try it out » envoie de vraies requêtes à ce service (elles comptent dans votre quota). Le <a href="${site.base}/docs">guide</a> explique les choix en détail (en anglais).</p>
<noscript><p>La référence interactive a besoin de JavaScript. Sans lui, lisez le <a href="${site.base}/docs">guide</a> ou le <a href="${site.base}/api/v1/openapi.json?po_live=1">document OpenAPI</a>.</p></noscript>
<div id="swagger-ui" lang="en" data-openapi="${site.base}/api/v1/openapi.json?po_live=1"></div>`,
  })
}
