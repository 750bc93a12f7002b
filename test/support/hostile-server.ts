/**
 * A server on 127.0.0.1 that imitates the records API and misbehaves on purpose, to drive the
 * client and the CLI against it: bodies that never end, lines that never end, bytes dripped one at
 * a time, a change feed whose cursor never advances or that hands out new ids forever, malformed
 * pages. Each route of the API is a `Behaviour`; the catalogue, the download and the feed have
 * well-formed defaults, so a test replaces only the one it makes hostile. Every request is logged
 * with its time, to count what a client sent and how fast.
 */
import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fakeFact as hostileRecord } from './scripted-server.js'

export type Behaviour = (req: IncomingMessage, res: ServerResponse, url: URL) => void
export type Route = 'catalogue' | 'download' | 'changes' | 'record' | 'search'

export type HostileServer = {
  /** Its origin, `http://127.0.0.1:PORT`. */
  url: string
  /** Its API root, `…/api/v1`. */
  api: string
  /** Every request, in order: when it came (Date.now()) and its path with query. */
  requests: { at: number; path: string }[]
  close(): Promise<void>
}

const JSON_TYPE = 'application/json; charset=utf-8'

/** A well-formed snapshot of `count` records: its lines in id order, its checksum, its publication id. */
export function snapshotOf(count: number, publication = '1') {
  const lines = Array.from({ length: count }, (_, i) => JSON.stringify(hostileRecord(i + 1))).sort()
  const text = lines.map((line) => `${line}\n`).join('')
  return { text, checksum: createHash('sha256').update(text).digest('hex'), publication, count }
}

export function catalogueBody(total: number, overrides: Record<string, unknown> = {}) {
  return {
    name: 'Hostile records',
    description: 'A server that misbehaves',
    version: '1.4.0',
    records: { total, by_kind: { fact: total } },
    updated_at: '2026-11-20T09:00:00.000Z',
    links: {
      self: '/api/v1/',
      search: '/api/v1/facts',
      record: '/api/v1/facts/{id}',
      openapi: '/api/v1/openapi.json',
      download: '/api/v1/facts.ndjson',
      changes: '/api/v1/changes',
      docs: '/docs',
    },
    limits: { requests_per_minute: 120, max_limit: 50, max_offset: 10000, max_q_length: 200 },
    reuse: { summary: 'test', attribution: 'test', contact: 'test@example.org' },
    ...overrides,
  }
}

/** Answers `body` as JSON. */
export const sendJson =
  (body: unknown, status = 200, headers: Record<string, string> = {}): Behaviour =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': JSON_TYPE, ...headers })
    res.end(JSON.stringify(body))
  }

/** Answers the snapshot as the download does, with its publication and checksum headers. @public */
export const sendSnapshot =
  (snapshot: ReturnType<typeof snapshotOf>): Behaviour =>
  (_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'x-publication-id': snapshot.publication,
      'x-records-checksum': `sha256=${snapshot.checksum}`,
    })
    res.end(snapshot.text)
  }

/**
 * Writes `head`, then `next()` again and again, as fast as the client reads, until it goes away:
 * a body that never ends (chunked, no length announced).
 * @public
 */
export const endless =
  (head: string, next: (i: number) => string, headers: Record<string, string> = {}): Behaviour =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': JSON_TYPE, ...headers })
    res.write(head)
    let i = 0
    let gone = false
    res.on('close', () => (gone = true))
    const pump = () => {
      while (!gone) {
        if (!res.write(next(i++))) return void res.once('drain', pump)
      }
    }
    pump()
  }

const FILLER = 'x'.repeat(64 * 1024)

/** A JSON answer that never ends: an object whose one string goes on forever. */
export const endlessJson = (): Behaviour => endless('{"name":"', () => FILLER)

/** A download of valid records, new ones forever. */
export const endlessRecords = (snapshotHeaders = true): Behaviour =>
  endless('', (i) => `${JSON.stringify(hostileRecord(i + 1))}\n`, {
    'content-type': 'application/x-ndjson; charset=utf-8',
    ...(snapshotHeaders ? { 'x-publication-id': '1', 'x-records-checksum': `sha256=${'0'.repeat(64)}` } : {}),
  })

/** A download whose first line never ends. */
export const endlessLine = (): Behaviour =>
  endless('{"id":"fait-0000000000000001","title":"', () => FILLER, {
    'content-type': 'application/x-ndjson; charset=utf-8',
    'x-publication-id': '1',
    'x-records-checksum': `sha256=${'0'.repeat(64)}`,
  })

/**
 * Sends the headers, then `text` one byte every `everyMs`, then ends (if the client is still there):
 * an answer that is never silent long, and never whole soon.
 */
export const drip =
  (text: string, everyMs: number, headers: Record<string, string> = {}): Behaviour =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': JSON_TYPE, ...headers })
    let i = 0
    const timer = setInterval(() => {
      if (i >= text.length) {
        clearInterval(timer)
        return res.end()
      }
      res.write(text[i++]!)
    }, everyMs)
    res.on('close', () => clearInterval(timer))
  }

/** A feed page: `changes` of `publication`, with `next`. */
export function feedPage(
  changes: { id: string; change: string }[],
  next: string | null,
  publication = { id: '2', checksum: 'f'.repeat(64), records: 3 },
) {
  return {
    publication: { ...publication, published_at: '2026-11-21T09:00:00.000Z' },
    changes: changes.map((c) => ({
      ...c,
      modified_at: null,
      publication: publication.id,
      published_at: '2026-11-21T09:00:00.000Z',
      href: `/api/v1/facts/${c.id}`,
      page: `/fiches/${c.id}`,
    })),
    next,
  }
}

/** A feed whose every page gives the same cursor again. */
export const stuckFeed = (): Behaviour =>
  sendJson(feedPage([{ id: hostileRecord(1).id, change: 'changed' }], 'cursor-1'))

/** A feed that advances forever, each page with `perPage` ids never seen before. */
export const endlessFeed =
  (perPage = 1): Behaviour =>
  (_req, res, url) => {
    const page = Number(url.searchParams.get('cursor')?.replace('cursor-', '') ?? 0)
    const changes = Array.from({ length: perPage }, (_, i) => ({
      id: hostileRecord(1_000_000 + page * perPage + i).id,
      change: 'added',
    }))
    sendJson(feedPage(changes, `cursor-${page + 1}`))(_req, res, url)
  }

/** Starts a hostile server; routes not given answer as a well-formed service of `snapshot` would. */
export async function startHostileServer(
  routes: Partial<Record<Route, Behaviour>> = {},
  snapshot = snapshotOf(3),
): Promise<HostileServer> {
  const requests: HostileServer['requests'] = []
  const defaults: Record<Route, Behaviour> = {
    catalogue: sendJson(catalogueBody(snapshot.count)),
    download: sendSnapshot(snapshot),
    changes: sendJson(
      feedPage([], null, { id: snapshot.publication, checksum: snapshot.checksum, records: snapshot.count }),
    ),
    record: (_req, res, url) => {
      const n = parseInt(url.pathname.split('fait-')[1] ?? '0', 16)
      sendJson(hostileRecord(n))(_req, res, url)
    },
    search: sendJson({ results: [], total: 0, limit: 10, offset: 0 }),
  }
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    requests.push({ at: Date.now(), path: `${url.pathname}${url.search}` })
    const route: Route | undefined =
      url.pathname === '/api/v1' || url.pathname === '/api/v1/'
        ? 'catalogue'
        : url.pathname === '/api/v1/facts.ndjson'
          ? 'download'
          : url.pathname === '/api/v1/changes'
            ? 'changes'
            : url.pathname.startsWith('/api/v1/facts/')
              ? 'record'
              : url.pathname === '/api/v1/facts'
                ? 'search'
                : undefined
    if (route === undefined)
      return sendJson({ error: { code: 'not_found', message: 'Not found' } }, 404)(req, res, url)
    // A client that gives up mid-body resets the socket: nothing to report.
    res.on('error', () => undefined)
    ;(routes[route] ?? defaults[route])(req, res, url)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  let closing: Promise<void> | undefined
  return {
    url,
    api: `${url}/api/v1`,
    requests,
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((err) => (err ? reject(err) : resolve()))
      })),
  }
}
