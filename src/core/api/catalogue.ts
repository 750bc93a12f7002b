/**
 * The catalogue (docs/contract.md "Catalogue body"): built once per snapshot and shared by every
 * adapter (the HTTP operation, the MCP tool and resource), so they can never describe the same
 * snapshot differently.
 */
import { ATTRIBUTION_TEMPLATE } from '../records/attribution.js'
import { reverifyLimit } from '../records/status.js'
import type { RecordIndex } from '../search/record-index.js'
import { API_PREFIX, API_VERSION, LIMITS, type Catalogue } from './schemas.js'

export type CatalogueOptions = {
  /** Public base URL for absolute links; root-relative links otherwise. */
  publicBaseUrl?: string
  /** Requests per minute per client; 0 when no quota is enforced. */
  requestsPerMinute: number
  /** Where reusers ask for permission (full republication). */
  contact: string
  /** Path of the MCP endpoint, when one is served next to the API. */
  mcpPath?: string
  /** Path of the guide for people. Default "/docs". */
  docsPath?: string
}

/** Paths of the discovery documents, outside /api/v1 (served by the HTTP adapter's discovery routes). */
export const DISCOVERY_PATHS = {
  llms: '/llms.txt',
  serverJson: '/server.json',
  serverCard: '/.well-known/mcp/server-card.json',
  sitemap: '/sitemap.xml',
  dcat: '/catalog.jsonld',
  changesAtom: '/changes.atom',
} as const

/** The catalogue of one snapshot, with its JSON text serialised once. */
export type PreparedCatalogue = { readonly value: Catalogue; readonly json: string }

/**
 * Catalogues memoised per snapshot and per UTC day: a reload's new snapshot gets its own on first
 * use, and so does a new day, since the count of rules to re-verify grows as verifications age.
 */
export class Catalogues {
  readonly #bySnapshot = new WeakMap<RecordIndex, { day: string; prepared: PreparedCatalogue }>()
  constructor(readonly options: CatalogueOptions) {}

  of(index: RecordIndex, now: Date = new Date()): PreparedCatalogue {
    const day = now.toISOString().slice(0, 10)
    const kept = this.#bySnapshot.get(index)
    if (kept !== undefined && kept.day === day) return kept.prepared
    const value = buildCatalogue(index, this.options, now)
    const prepared = { value, json: JSON.stringify(value) }
    this.#bySnapshot.set(index, { day, prepared })
    return prepared
  }
}

/**
 * How many official rules of `index` are flagged "à revérifier" on `now` (status.ts
 * `needsReverification`), counted on the snapshot's column of verification dates, made at its build:
 * no record is parsed (reading them all stalled the first catalogue of a snapshot for a second at
 * 100 000 records).
 */
export function reverifyCount(index: RecordIndex, now: Date): number {
  const limit = reverifyLimit(now)
  // An indexed loop, not for…of: at 1 000 000 records the iterator took 15–26 ms of the catalogue's
  // first answer of a day, the indexed loop 4–6 ms (NaN, no date, is never below the limit).
  const verifiedTimes = index.verifiedTimes
  let count = 0
  for (let i = 0; i < verifiedTimes.length; i++) if (verifiedTimes[i]! < limit) count++
  return count
}

/**
 * The catalogue's links: the same for every snapshot, so the discovery documents (which may be
 * served before the first snapshot) read them from the options too. The MCP registry entry and
 * server card describe the MCP endpoint, so they are linked only when one is served.
 */
export function catalogueLinks(options: CatalogueOptions): Catalogue['links'] {
  const base = options.publicBaseUrl ?? ''
  const api = `${base}${API_PREFIX}`
  const mcp =
    options.mcpPath === undefined
      ? {}
      : {
          mcp: `${base}${options.mcpPath}`,
          server_json: `${base}${DISCOVERY_PATHS.serverJson}`,
          server_card: `${base}${DISCOVERY_PATHS.serverCard}`,
        }
  return {
    self: `${api}/`,
    search: `${api}/facts`,
    record: `${api}/facts/{id}`,
    openapi: `${api}/openapi.json`,
    download: `${api}/facts.ndjson`,
    changes: `${api}/changes`,
    ...mcp,
    docs: `${base}${options.docsPath ?? '/docs'}`,
    llms: `${base}${DISCOVERY_PATHS.llms}`,
    // A sitemap's addresses must be absolute: it is served only on a public base URL.
    ...(options.publicBaseUrl === undefined ? {} : { sitemap: `${base}${DISCOVERY_PATHS.sitemap}` }),
    dcat: `${base}${DISCOVERY_PATHS.dcat}`,
    // An Atom feed's ids and links must be absolute too.
    ...(options.publicBaseUrl === undefined ? {} : { changes_atom: `${base}${DISCOVERY_PATHS.changesAtom}` }),
  }
}

function buildCatalogue(index: RecordIndex, options: CatalogueOptions, now: Date = new Date()): Catalogue {
  return {
    name: 'Reference-Records API',
    description:
      'Public, read-only records of a driving-licence training website: official rules (with their sources and ' +
      'verification dates), lessons, method, offers, the organization and its people. GET only, no key.',
    version: API_VERSION,
    records: {
      total: index.size,
      by_kind: { ...index.countsByKind },
      to_reverify: reverifyCount(index, now),
    },
    updated_at: index.publishedAt,
    links: catalogueLinks(options),
    limits: {
      requests_per_minute: options.requestsPerMinute,
      max_limit: LIMITS.maxLimit,
      max_offset: LIMITS.maxOffset,
      max_q_length: LIMITS.maxQueryLength,
    },
    reuse: {
      summary:
        'Records may be consulted, quoted and summarised, including in commercial tools, if the attribution is visible ' +
        'and links to the record page used. Keep the references and reservations that accompany a record, state your ' +
        'adaptations, and keep official rules distinct from explanations, method and offers. Third-party documents and ' +
        'images keep their own terms. Full republication of a course or article needs prior permission. Access grants ' +
        'no partnership and no endorsement.',
      attribution: ATTRIBUTION_TEMPLATE,
      contact: options.contact,
    },
  }
}
