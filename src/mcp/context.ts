/**
 * What the MCP server knows besides the records: its version, where a record's page for people is,
 * the served snapshot's catalogue (for the instructions and the guide), and the clock. Built per
 * server instance, so each stateless request sees the snapshot served when it came.
 */
import type { CacheHint } from '@modelcontextprotocol/server'
import type { Catalogue } from '../core/api/schemas.js'
import type { Fact } from '../core/records/record.js'

export type McpContext = {
  version: string
  /**
   * The page of a record for people, which answers link to and ChatGPT's `url` is: this service's
   * `/fiches/{id}` when it serves pages (absolute with a public base URL), the record's original
   * page otherwise.
   */
  recordPage(record: Pick<Fact, 'id' | 'url'>): string
  /** The served snapshot's catalogue; undefined before the first load (the tools then answer "unavailable"). */
  catalogue: Catalogue | undefined
  now(): Date
}

/** The longest time a client may keep a list or a read: records change only at a publication, but one may come at any time. */
export const MAX_CACHE_TTL_MS = 5 * 60_000
/** Share of the time since the last publication a client may keep an answer: HTTP's heuristic freshness (RFC 9111 §4.2.2). */
const TTL_SHARE_OF_AGE = 0.1

/**
 * How long a client may keep a cacheable result of the 2026-07-28 era (lists, reads, discovery): a
 * tenth of the time since the served snapshot was published, at most MAX_CACHE_TTL_MS. Right after a
 * publication (when a correction may follow) that is short; a snapshot unchanged for an hour gives the
 * full five minutes. Public: the records are the same for every client.
 */
export function cacheHint(publishedAt: string | undefined, now: Date): CacheHint {
  const published = publishedAt === undefined ? Number.NaN : Date.parse(publishedAt)
  const age = Number.isNaN(published) ? 0 : Math.max(0, now.getTime() - published)
  return { ttlMs: Math.min(MAX_CACHE_TTL_MS, Math.floor(age * TTL_SHARE_OF_AGE)), cacheScope: 'public' }
}
