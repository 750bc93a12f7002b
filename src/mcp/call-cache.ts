/**
 * Finished `tools/call` answers, kept per records snapshot. The official SDK stays the protocol
 * implementation: it answers every call the first time, and its answer is kept as bytes around the
 * JSON-RPC id, so the same call later (the same tool, arguments, protocol era and header fields)
 * gets the SDK's own bytes with its own id spliced in, without a server, a transport, two web
 * objects and a schema validation of every result per request. A differential test proves the
 * kept answers byte-equal to the SDK's, apart from the id, in both protocol eras.
 */
import type { IncomingMessage } from 'node:http'
import { LRUCache } from 'lru-cache'

export type JsonRpcId = string | number

/**
 * An answer as sent: status, header fields (Content-Length aside: the body's own), and the body in
 * pieces sent one after the other (a kept answer's are shared: the id goes between the SDK's bytes,
 * which are never copied per request).
 */
export type RawReply = {
  status: number
  headers: Record<string, string>
  body: readonly Buffer[]
  length: number
}

/** The SDK's answer with its id taken out: `before` + the id's JSON + `after`. */
type Template = { status: number; headers: Record<string, string>; before: Buffer; after: Buffer }

/** Bytes kept per snapshot; a search answer is a few KB to ~80 KB. */
const MAX_CACHED_BYTES = 16 * 1024 * 1024
/** Request header fields the SDK reads to tell the era and check the call; anything else does not change its answer. */
const KEY_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-method', 'mcp-name'] as const
const PROBE = '"reference-records:probe"'

/** The call's id, when `message` is one cacheable `tools/call` request (not a batch, not a notification). */
export function cacheableCall(message: unknown): { id: JsonRpcId; params: object } | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined
  const { jsonrpc, method, id, params } = message as Record<string, unknown>
  if (jsonrpc !== '2.0' || method !== 'tools/call') return undefined
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)))) return undefined
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined
  return { id, params }
}

export class ToolCallCache {
  readonly #bySnapshot = new WeakMap<object, LRUCache<string, Template>>()

  /**
   * What makes two calls answer the same bytes (but their ids): the header fields the SDK reads, the
   * params, and `day` (answers age verifications in whole days).
   */
  keyOf(req: IncomingMessage, params: object, day = ''): string {
    const headers = req.headers
    let key = `${day}\n${JSON.stringify(params)}`
    // One line per field, its value as JSON: an absent field ("-") differs from an empty one ('""').
    for (const name of KEY_HEADERS)
      key += `\n${headers[name] === undefined ? '-' : JSON.stringify(headers[name])}`
    return key
  }

  /** The kept answer of this call for `id`, or undefined. */
  get(snapshot: object, key: string, id: JsonRpcId): RawReply | undefined {
    const template = this.#bySnapshot.get(snapshot)?.get(key)
    if (template === undefined) return undefined
    const idBytes = Buffer.from(JSON.stringify(id))
    return {
      status: template.status,
      headers: template.headers,
      body: [template.before, idBytes, template.after],
      length: template.before.length + idBytes.length + template.after.length,
    }
  }

  /**
   * Keeps the SDK's answer `reply` to the call with `id` when its id can be taken out unambiguously
   * (the one top-level `"id":…` of the answer); any other answer is simply not kept.
   */
  remember(snapshot: object, key: string, id: JsonRpcId, reply: RawReply): void {
    if (reply.status !== 200 || !reply.headers['content-type']?.startsWith('application/json')) return
    const text = Buffer.concat(reply.body).toString('utf8')
    const needle = `"id":${JSON.stringify(id)}`
    for (
      let at = text.lastIndexOf(needle);
      at !== -1;
      at = at === 0 ? -1 : text.lastIndexOf(needle, at - 1)
    ) {
      const before = text.slice(0, at + 5)
      const after = text.slice(at + needle.length)
      if (!isTopLevelId(`${before}${PROBE}${after}`)) continue
      let cache = this.#bySnapshot.get(snapshot)
      if (cache === undefined) {
        cache = new LRUCache<string, Template>({
          maxSize: MAX_CACHED_BYTES,
          sizeCalculation: (t, k) => t.before.length + t.after.length + k.length + 256,
        })
        this.#bySnapshot.set(snapshot, cache)
      }
      cache.set(key, {
        status: reply.status,
        headers: reply.headers,
        before: Buffer.from(before),
        after: Buffer.from(after),
      })
      return
    }
  }
}

function isTopLevelId(text: string): boolean {
  try {
    return (JSON.parse(text) as { id?: unknown }).id === JSON.parse(PROBE)
  } catch {
    return false
  }
}
