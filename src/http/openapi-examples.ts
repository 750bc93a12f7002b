/**
 * Examples for the OpenAPI document, so the interactive reference (/reference) shows a real search,
 * a real record and each error as a client would see them. They are real: the record is a record of
 * the bundled sample (data/records.json), the search is what the service answers on that sample, and
 * each error message is the one the service sends; tests check all three against the live service.
 */
import { API_PREFIX, API_VERSION } from '../core/api/schemas.js'
import type { Fact } from '../core/records/record.js'

type Example = { summary: string; value: unknown }
type Examples = Record<string, Example>

/** fait-643b555e754f953d of the bundled sample, as the API serves it. */
export const RECORD_EXAMPLE: Fact = {
  id: 'fait-643b555e754f953d',
  kind: 'fact',
  title: 'Vitesse maximale en agglomération : 50 km/h',
  text:
    "En agglomération, la vitesse des véhicules est limitée à 50 km/h, de jour comme de nuit et quelle que soit la météo. La limite commence au panneau d'entrée portant le nom de la commune et prend fin au panneau de sortie barré d'un trait rouge.\n" +
    "Le maire peut abaisser cette vitesse, par exemple à 30 km/h sur une partie ou sur l'ensemble de la commune. La limite peut aussi être relevée à 70 km/h sur certaines sections où les accès riverains et les traversées de piétons sont peu nombreux et protégés.\n" +
    'Dans une zone de rencontre, la vitesse est limitée à 20 km/h et les piétons sont prioritaires sur tous les véhicules.',
  description:
    'En ville, la vitesse est limitée à 50 km/h sauf décision locale contraire (zone 30, zone de rencontre, section à 70 km/h).',
  url: 'https://code-et-conduite.example/regles/vitesse-agglomeration',
  regions: ['France'],
  verified_at: '2026-09-15',
  modified_at: '2026-09-15T08:40:00Z',
  verification_scope:
    'Relecture des articles R413-3 et R110-2 du Code de la route sur Légifrance, version en vigueur au 15 septembre 2026.',
  sources: [
    {
      url: 'https://www.legifrance.gouv.fr/codes/article_lc/LEGIARTI000028436430/',
      label: 'Code de la route, article R413-3',
      type: 'official',
    },
    {
      url: 'https://www.legifrance.gouv.fr/codes/article_lc/LEGIARTI000045650507/',
      label: 'Code de la route, article R110-2',
      type: 'official',
    },
    {
      url: 'https://www.securite-routiere.gouv.fr/reglementation-liee-aux-risques/reglementation-de-la-vitesse-au-volant',
      label: 'Sécurité routière, « Réglementation de la vitesse au volant »',
      type: 'official',
    },
  ],
  related: [
    {
      title: 'Les vitesses maximales autorisées',
      url: 'https://code-et-conduite.example/cours/chapitre-4-vitesse/vitesses-maximales-autorisees',
      text: 'La leçon complète sur les vitesses maximales.',
    },
  ],
}

/** The search whose answer (on the bundled sample) is SEARCH_EXAMPLE. */
export const SEARCH_EXAMPLE_QUERY = { q: 'vitesse agglomération', kind: 'fact', limit: '1' } as const
export const SEARCH_EXAMPLE = {
  results: [RECORD_EXAMPLE],
  total: 7,
  limit: 1,
  offset: 0,
  interpretation: {
    words: ['vitesse', 'agglomération'],
    ignored: [],
    corrected: [],
    expanded: [],
    relaxed: [],
  },
}

/**
 * A question that matches nothing, whose answer (on the bundled sample) is SEARCH_NO_MATCH_EXAMPLE:
 * it shows what a client gets instead of a silent zero — the question words ignored, the misspelling
 * corrected, and the relaxed queries that would match, with their totals.
 */
export const SEARCH_NO_MATCH_EXAMPLE_QUERY = { q: "peut-on rouler en trotinette sur l'autoroute ?" } as const
export const SEARCH_NO_MATCH_EXAMPLE = {
  results: [],
  total: 0,
  limit: 10,
  offset: 0,
  interpretation: {
    words: ['rouler', 'trottinette', 'autoroute'],
    ignored: ['peut', 'on', 'en', 'sur'],
    corrected: [{ from: 'trotinette', to: 'trottinette' }],
    expanded: [],
    relaxed: [
      { without: 'rouler', q: 'trottinette autoroute', total: 1 },
      { without: 'autoroute', q: 'rouler trottinette', total: 2 },
      { without: 'trottinette', q: 'rouler autoroute', total: 5 },
    ],
  },
}

/** Request examples, by parameter name: what "Try it out" offers. */
export const PARAMETER_EXAMPLES: Readonly<Record<string, Examples>> = {
  q: {
    words: { summary: 'Words, all required (accents and case ignored)', value: SEARCH_EXAMPLE_QUERY.q },
    stopWords: { summary: 'Stop words ("à") are not required', value: 'priorité à droite' },
  },
  id: { rule: { summary: 'An official rule', value: RECORD_EXAMPLE.id } },
}

const error = (summary: string, code: string, message: string): Example => ({
  summary,
  value: { error: { code, message } },
})

/** Error examples by status, with the exact messages the service sends. */
export const ERROR_EXAMPLES: Readonly<Record<string, Examples>> = {
  '400': {
    outOfRange: error(
      'A value out of range (never clamped)',
      'invalid_parameter',
      'Query parameter "limit" must be an integer from 1 to 50 (got "0")',
    ),
    unknown: error(
      'An unknown parameter (never ignored)',
      'invalid_parameter',
      'Unknown query parameter "kinds"; allowed: q, region, kind, match, limit, offset, po_live',
    ),
    badEncoding: error(
      'Malformed percent-encoding',
      'invalid_parameter',
      'Query parameter "q" has invalid percent-encoding (use UTF-8, e.g. %C3%A9 for é)',
    ),
    badId: error(
      'A malformed record id',
      'invalid_parameter',
      'Path parameter "id" must be a prefix (fait-, expertise-fait-, page-, brand-, offer-, person-) and 16 lowercase hex digits (got "fait-123")',
    ),
    fragment: error(
      'A request target holding a "#" (counted in the quota)',
      'invalid_parameter',
      'The request target must not hold a fragment ("#"): send the path and query only, and percent-encode a "#" that is data as %23',
    ),
  },
  '403': {
    otherHost: error(
      'Listening on a loopback address, a Host (or Origin) naming another host',
      'invalid_parameter',
      'Header "Host": "evil.example.com" names no host this service answers for: it listens on a loopback address and accepts localhost, 127.0.0.1, [::1] (the operator may list more in ALLOWED_HOSTS)',
    ),
  },
  '404': {
    unknownRecord: error(
      'A well-formed id that no record has',
      'not_found',
      `No record with id "fait-0000000000000000"; search with ${API_PREFIX}/facts`,
    ),
  },
  '405': {
    post: error(
      'Any method but GET, HEAD and OPTIONS',
      'method_not_allowed',
      `Method POST is not allowed on ${API_PREFIX}/facts (allowed: GET, HEAD, OPTIONS)`,
    ),
  },
  '414': {
    tooLong: error(
      'A request target over 8 192 characters',
      'invalid_parameter',
      'Request URL is 9000 characters long; at most 8192 are accepted',
    ),
  },
  '431': {
    tooLarge: error(
      'Request line or headers over 16 KiB',
      'invalid_parameter',
      'Request line or headers too large (at most 16 KiB)',
    ),
  },
  '429': {
    quota: error(
      'The quota is spent: wait Retry-After seconds',
      'rate_limited',
      'Too many requests: at most 120 per 60 s per client, shared by the API and the MCP server; retry in 42 s',
    ),
  },
  '503': {
    notLoaded: error('No records loaded yet', 'unavailable', 'No records are loaded yet; retry shortly'),
    draining: error(
      'This replica is shutting down',
      'unavailable',
      'The server is shutting down; retry shortly',
    ),
  },
  '410': {
    tooOld: error(
      'since is older than the kept change history',
      'gone',
      'Query parameter "since": publication "12" is not in the kept history (the oldest kept is "20", published 2026-01-31T08:00:00.000Z); download the whole snapshot again (GET /api/v1/facts.ndjson, whose X-Publication-Id header says where to follow from) and follow the feed from there',
    ),
  },
}

/** The catalogue of the bundled sample, as served without a public base URL. */
export const CATALOGUE_EXAMPLE = {
  name: 'Reference-Records API',
  description:
    'Public, read-only records of a driving-licence training website: official rules (with their sources and verification dates), lessons, method, offers, the organization and its people. GET only, no key.',
  version: API_VERSION,
  records: {
    total: 264,
    by_kind: {
      fact: 80,
      expertise: 12,
      organization: 1,
      offer: 12,
      person: 11,
      article: 28,
      lesson: 96,
      page: 10,
      tool: 14,
    },
    to_reverify: 2,
  },
  updated_at: '2026-11-20T09:00:00.000Z',
  links: {
    self: `${API_PREFIX}/`,
    search: `${API_PREFIX}/facts`,
    record: `${API_PREFIX}/facts/{id}`,
    openapi: `${API_PREFIX}/openapi.json`,
    download: `${API_PREFIX}/facts.ndjson`,
    changes: `${API_PREFIX}/changes`,
    mcp: '/mcp',
    server_json: '/server.json',
    server_card: '/.well-known/mcp/server-card.json',
    docs: '/docs',
    llms: '/llms.txt',
    dcat: '/catalog.jsonld',
  },
  limits: { requests_per_minute: 120, max_limit: 50, max_offset: 10000, max_q_length: 300 },
  reuse: {
    summary:
      'Records may be consulted, quoted and summarised, including in commercial tools, if the attribution is visible and links to the record page used. Keep the references and reservations that accompany a record, state your adaptations, and keep official rules distinct from explanations, method and offers. Third-party documents and images keep their own terms. Full republication of a course or article needs prior permission. Access grants no partnership and no endorsement.',
    attribution: 'Source : <record title> — <record url>',
    contact: 'contact@code-et-conduite.example',
  },
}
