/**
 * Refusals as pages: a person who hits the quota, a bad address or an unknown record gets a page in
 * French that says what happened and what to do (when to come back, where to search), with the same
 * status and Retry-After as the API would give.
 */
import type { ApiError } from '../../core/errors.js'
import { html, type Html } from './html.js'
import { renderPage, type Site } from './layout.js'

/** "42 secondes", "1 minute", "1 minute et 5 secondes". */
export function frenchDelay(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds))
  const plural = (n: number, word: string) => `${n} ${word}${n > 1 ? 's' : ''}`
  if (s < 60) return plural(s, 'seconde')
  const rest = s % 60
  return rest === 0
    ? plural(s / 60, 'minute')
    : `${plural(Math.floor(s / 60), 'minute')} et ${plural(rest, 'seconde')}`
}

/** A request target safe to link back to: a path on this site, never "//host" or "/\\host" (another site). */
export const sameSitePath = (target: string): string => (/^\/(?![/\\])/.test(target) ? target : '/')

type ErrorContext = {
  /** Requests per minute per client, when a quota is enforced. */
  quotaPerMinute?: number
  /** The address that was asked (the raw request target), to offer to retry it. */
  path: string
}

function explain(
  err: ApiError,
  status: number,
  site: Site,
  ctx: ErrorContext,
): { title: string; body: Html } {
  const search = html`<p><a href="${site.base}/recherche">Rechercher dans les fiches</a> ou revenir à <a href="${site.base}/">l’accueil</a>.</p>`
  const wait = err.retryAfterSeconds === undefined ? undefined : frenchDelay(err.retryAfterSeconds)
  switch (status) {
    case 429:
      return {
        title: 'Trop de requêtes',
        body: html`<p class="lead">Revenez dans <strong>${wait ?? 'une minute'}</strong> : cette page s’affichera de nouveau normalement.</p>
<p>Chaque client peut faire ${ctx.quotaPerMinute === undefined ? 'un nombre limité de' : `au plus ${ctx.quotaPerMinute}`} requêtes par minute,
recherches et fiches de ces pages comprises, en commun avec l’API. Cette limite protège le service pour tout le monde.</p>
<p><a class="button" href="${site.base}${ctx.path}">Réessayer</a></p>`,
      }
    case 503:
      return {
        title: 'Service momentanément indisponible',
        body: html`<p class="lead">Le service redémarre ou charge ses fiches. Revenez dans <strong>${wait ?? 'quelques secondes'}</strong>.</p>
<p><a class="button" href="${site.base}${ctx.path}">Réessayer</a></p>`,
      }
    case 404:
      return { title: 'Page introuvable', body: html`<p class="lead">${err.message}</p>${search}` }
    case 405:
      return {
        title: 'Méthode non acceptée',
        body: html`<p class="lead">Ces pages se consultent seulement (GET).</p>${search}`,
      }
    case 500:
      return {
        title: 'Erreur du service',
        body: html`<p class="lead">Une erreur inattendue s’est produite ; elle a été consignée. Réessayez plus tard.</p>${search}`,
      }
    default:
      return { title: 'Adresse non valide', body: html`<p class="lead">${err.message}</p>${search}` }
  }
}

/** The page of a refusal; messages of the pages' own errors are French, the API's others are shown as given. */
export function renderErrorPage(err: ApiError, status: number, site: Site, ctx: ErrorContext): string {
  const { title, body } = explain(err, status, site, { ...ctx, path: sameSitePath(ctx.path) })
  return renderPage(site, {
    title,
    noindex: true,
    body: html`<div class="error-page"><p class="code">Erreur ${status}</p><h1>${title}</h1>${body}</div>`,
  })
}
