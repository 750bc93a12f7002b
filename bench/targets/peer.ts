/**
 * The peer baseline: the straightforward implementation a competent team would write first, to say
 * what the service's design buys. Fastify, MiniSearch over the same records, the same routes and
 * roughly the same query semantics (AND of words, accents and case folded, kind/region filters,
 * paging, the po_live 307), and what a first version does per request: search, slice, let Fastify
 * JSON.stringify the object, hash the payload for an ETag (as @fastify/etag does) to answer 304s.
 * Not done: the service's stop words, elisions, title-first ranking and error-body details.
 *
 * Run: node --import tsx bench/targets/peer.ts --port 8106 --records data/records.json
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import Fastify from 'fastify'
import MiniSearch from 'minisearch'

type Rec = { id: string; kind: string; title: string; text: string; description?: string; regions: string[] }
const KINDS = ['fact', 'expertise', 'organization', 'offer', 'person', 'article', 'lesson', 'page', 'tool']

const { values } = parseArgs({ options: { port: { type: 'string' }, records: { type: 'string' } } })
const records = loadRecords(values.records ?? 'data/records.json')

/** A JSON array, a {records: […]} snapshot, or NDJSON: the formats the service reads. */
function loadRecords(file: string): Rec[] {
  const text = readFileSync(file, 'utf8')
  const t = text.trimStart()
  if (t.startsWith('[')) return JSON.parse(text) as Rec[]
  if (t.startsWith('{') && !t.includes('\n{')) return (JSON.parse(text) as { records: Rec[] }).records
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Rec)
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
const search = new MiniSearch<Rec>({
  fields: ['title', 'text', 'description'],
  processTerm: (term) => fold(term),
  searchOptions: { combineWith: 'AND', boost: { title: 2 } },
})
search.addAll(records)
const byId = new Map(records.map((r) => [r.id, r]))
const collator = new Intl.Collator('fr')
const listing = [...records].sort(
  (a, b) =>
    KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind) ||
    collator.compare(a.title, b.title) ||
    (a.id < b.id ? -1 : 1),
)

const app = Fastify({ logger: false })

// Every API read first answers 307 to its live read (po_live=1).
app.addHook('onRequest', async (req, reply) => {
  if (!req.url.startsWith('/api/v1') || /[?&]po_live=/.test(req.url)) return
  return reply
    .code(307)
    .header('location', req.url + (req.url.includes('?') ? '&' : '?') + 'po_live=1')
    .send()
})

// ETag from the serialised payload; 304 when the client has it.
app.addHook('onSend', async (req, reply, payload) => {
  if (typeof payload !== 'string' || reply.statusCode !== 200) return payload
  const etag = `"${createHash('sha1').update(payload).digest('base64')}"`
  reply.header('etag', etag)
  if (req.headers['if-none-match'] === etag) {
    reply.code(304)
    return ''
  }
  return payload
})

type SearchQuery = { q?: string; kind?: string; region?: 'france'; limit: number; offset: number }
const querystring = {
  type: 'object',
  additionalProperties: false,
  properties: {
    q: { type: 'string', maxLength: 300 },
    kind: { type: 'string', enum: KINDS },
    region: { type: 'string', enum: ['france'] },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
    offset: { type: 'integer', minimum: 0, maximum: 10_000, default: 0 },
    po_live: { type: 'string', const: '1' },
  },
}

app.get<{ Querystring: SearchQuery }>('/api/v1/facts', { schema: { querystring } }, async (req) => {
  const { q, kind, region, limit, offset } = req.query
  const keep = (r: Rec) =>
    (kind === undefined || r.kind === kind) && (region === undefined || r.regions.includes('France'))
  const matches = q
    ? search
        .search(q)
        .map((hit) => byId.get(hit.id as string)!)
        .filter(keep)
    : listing.filter(keep)
  return { results: matches.slice(offset, offset + limit), total: matches.length, limit, offset }
})

app.get<{ Params: { id: string } }>('/api/v1/facts/:id', async (req, reply) => {
  const record = byId.get(req.params.id)
  if (record === undefined)
    return reply
      .code(404)
      .send({ error: { code: 'not_found', message: `No record with id "${req.params.id}"` } })
  return record
})

app.get('/api/v1/', async () => ({
  records: {
    total: records.length,
    by_kind: Object.fromEntries(KINDS.map((k) => [k, records.filter((r) => r.kind === k).length])),
  },
}))

await app.listen({ port: Number(values.port), host: '127.0.0.1' })
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.on(signal, () => void app.close().then(() => process.exit(0)))
