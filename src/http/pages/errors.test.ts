import { expect, it } from 'vitest'
import { ApiError } from '../../core/errors.js'
import { Assets } from './assets.js'
import { frenchDelay, renderErrorPage, sameSitePath } from './errors.js'

const site = { base: '', assets: new Assets('') }
const text = (page: string) => page.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')

it('says how long to wait in words', () => {
  expect([1, 2, 59, 60, 61, 125].map(frenchDelay)).toEqual([
    '1 seconde',
    '2 secondes',
    '59 secondes',
    '1 minute',
    '1 minute et 1 seconde',
    '2 minutes et 5 secondes',
  ])
})

it('tells a refused person when to come back, and offers to retry the same address', () => {
  const page = renderErrorPage(
    new ApiError('rate_limited', 'Too many requests', { retryAfterSeconds: 42 }),
    429,
    site,
    { quotaPerMinute: 120, path: '/recherche?q=x' },
  )
  expect(text(page)).toContain(
    'Erreur 429 Trop de requêtes Revenez dans 42 secondes : cette page s’affichera de nouveau normalement.',
  )
  expect(text(page)).toContain('Chaque client peut faire au plus 120 requêtes par minute')
  expect(page).toContain('<a class="button" href="/recherche?q=x">Réessayer</a>')
  expect(page).toContain('<meta name="robots" content="noindex">')
})

it('asks to come back shortly while the records load', () => {
  const page = renderErrorPage(
    new ApiError('unavailable', 'No records', { retryAfterSeconds: 5 }),
    503,
    site,
    { path: '/fiches/fait-0000000000000001' },
  )
  expect(text(page)).toContain(
    'Service momentanément indisponible Le service redémarre ou charge ses fiches. Revenez dans 5 secondes',
  )
  expect(page).toContain('Revenez dans <strong>5 secondes</strong>.')
})

it('never links to another site from the address it was given', () => {
  expect(
    ['/recherche?q=a', '//evil.example/x', '/\\evil.example', 'https://evil.example/'].map(sameSitePath),
  ).toEqual(['/recherche?q=a', '/', '/', '/'])
})
