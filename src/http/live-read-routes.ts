/**
 * The four operations (docs/spec.md §4: catalogue, search, one record, OpenAPI document) that take the
 * live-read redirect; the route table (route-table.ts) says which address is which. The download is not one of them: it is read as it is.
 */
import { API_PREFIX } from '../core/api/schemas.js'

export type LiveReadRoute = 'catalogue' | 'openapi' | 'search' | 'record'

export const RECORD_PREFIX = `${API_PREFIX}/facts/`
/**
 * The router's bound on a path parameter (Fastify's maxParamLength, set from this): long enough that a
 * malformed id gets its 400, not a 404.
 */
export const MAX_ID_LENGTH = 1_000

/** The id of a record path whose segment needs no decoding and that the router takes as it is. */
export function plainRecordId(path: string): string | undefined {
  const id = path.slice(RECORD_PREFIX.length)
  return id.length <= MAX_ID_LENGTH && !id.includes('%') ? id : undefined
}
