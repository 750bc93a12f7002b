/**
 * The four operations' paths (docs/spec.md §4: catalogue, search, one record, OpenAPI document), as the
 * live-read redirect and the fast path read them. The download is not one of them: it is read as it is.
 */
import { API_PREFIX } from '../core/api/schemas.js'

export type LiveReadRoute = 'catalogue' | 'openapi' | 'search' | 'record'

const FACTS = `${API_PREFIX}/facts`
export const RECORD_PREFIX = `${FACTS}/`
/**
 * The router's bound on a path parameter (Fastify's maxParamLength, set from this): long enough that a
 * malformed id gets its 400, not a 404.
 */
export const MAX_ID_LENGTH = 1_000

/** The operation `path` addresses; a record's id is any one segment (the router decodes it). */
export function liveReadRoute(path: string): LiveReadRoute | undefined {
  if (path === FACTS) return 'search'
  if (path.startsWith(RECORD_PREFIX)) {
    const id = path.slice(RECORD_PREFIX.length)
    return id !== '' && !id.includes('/') ? 'record' : undefined
  }
  if (path === API_PREFIX || path === `${API_PREFIX}/`) return 'catalogue'
  if (path === `${API_PREFIX}/openapi.json`) return 'openapi'
  return undefined
}

/** The id of a record path whose segment needs no decoding and that the router takes as it is. */
export function plainRecordId(path: string): string | undefined {
  const id = path.slice(RECORD_PREFIX.length)
  return id.length <= MAX_ID_LENGTH && !id.includes('%') ? id : undefined
}
