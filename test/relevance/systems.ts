/**
 * The searches the relevance tables measure, side by side on the same records (docs/search.md):
 * this service's search as the REST API answers it (`match=all`, `match=best`), as the MCP tool
 * answers it (over a real MCP client), and the peers a developer could have used instead: MiniSearch
 * and Orama (general-purpose in-memory libraries, Orama with its French stemmer) and PostgreSQL's
 * French full-text search. A table that scores only this engine cannot say whether a library would
 * do better.
 */
import { Client } from '@modelcontextprotocol/client'
import { create, insertMultiple, search as oramaSearch } from '@orama/orama'
import { language as french, stemmer as frenchStemmer } from '@orama/stemmers/french'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import MiniSearch from 'minisearch'
import pg from 'pg'
import { Catalogues } from '../../src/core/api/catalogue.js'
import { LocalRecordReader } from '../../src/core/api/reader.js'
import { answerSearch } from '../../src/core/api/search.js'
import type { SearchEnvelope } from '../../src/core/api/schemas.js'
import type { Fact } from '../../src/core/records/record.js'
import type { MatchMode } from '../../src/core/search/match-mode.js'
import type { RecordIndex } from '../../src/core/search/record-index.js'
import { foldByDefinition } from '../../src/core/search/tokenize.js'
import { LiveRecords } from '../../src/core/snapshots/live-records.js'
import { buildMcpServer } from '../../src/mcp/server.js'
import { FIRST_PAGE_SIZE, type SearchFirstPage } from './measure.js'

/** A search measured by the tables: its name as the tables print it, and its first page for a query. */
export type System = {
  name: string
  search: (q: string) => Promise<{ ids: readonly string[]; total: number }>
  close?: () => Promise<void>
}

/** This service's search as `GET /api/v1/facts?q=…&match=…` answers it (the same core function). */
export function restSearch(index: RecordIndex, match: MatchMode): SearchFirstPage {
  return (q) => {
    const answer = answerSearch(index, { q, match, limit: FIRST_PAGE_SIZE, offset: 0 })
    return { ids: answer.results.map((e) => e.record.id), total: answer.total }
  }
}

/** `search_facts` called over a real MCP client (in memory), with the arguments an agent sends: `q` alone. */
export async function mcpToolSystem(index: RecordIndex): Promise<System> {
  const records = new LiveRecords()
  records.swap(index)
  const server = await buildMcpServer(
    new LocalRecordReader(
      records,
      new Catalogues({ requestsPerMinute: 120, contact: 'relevance@example.org' }),
    ),
    { version: '0.0.0', recordPage: (r) => r.url },
  )
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'relevance', version: '1' })
  await client.connect(clientSide)
  return {
    name: 'MCP search_facts',
    search: async (q) => {
      const result = await client.callTool({ name: 'search_facts', arguments: { q } })
      const page = result.structuredContent as SearchEnvelope
      return { ids: page.results.map((r) => r.id), total: page.total }
    },
    close: async () => {
      await client.close()
      await server.close()
    },
  }
}

/** What a record offers to a peer's index: the fields this service searches (title, text, description, references). */
function searchedFields(record: Fact): { id: string; title: string; body: string } {
  const references = [...record.sources.map((s) => s.label), ...(record.bibliography ?? [])].join('\n')
  return {
    id: record.id,
    title: record.title,
    body: [record.text, record.description ?? '', references].join('\n'),
  }
}

/**
 * MiniSearch 7 as its documentation sets it up for a forgiving search box: every word optional (OR),
 * prefix and fuzzy matching (edit distance 0.2 × the word's length), accents folded as this
 * service folds them, the title boosted ×2, its default tokenizer and BM25 ranking, no stop words.
 */
export function miniSearchPeer(records: readonly Fact[]): SearchFirstPage {
  const mini = new MiniSearch<{ id: string; title: string; body: string }>({
    fields: ['title', 'body'],
    processTerm: (term) => foldByDefinition(term),
    searchOptions: { combineWith: 'OR', prefix: true, fuzzy: 0.2, boost: { title: 2 } },
  })
  mini.addAll(records.map(searchedFields))
  return (q) => {
    const hits = mini.search(q)
    return { ids: hits.slice(0, FIRST_PAGE_SIZE).map((h) => String(h.id)), total: hits.length }
  }
}

/**
 * Orama 3.1 as its documentation sets it up for French: the tokenizer with stemming on and the
 * French Snowball stemmer of `@orama/stemmers` (Orama folds accents itself), every word optional
 * (`threshold: 1`, which returns the documents holding any of the words), the title boosted ×2 as
 * for MiniSearch, its BM25 ranking, and its typo tolerance off (its default): the stemmer is what
 * this peer is measured for.
 */
export async function oramaPeer(records: readonly Fact[]): Promise<SearchFirstPage> {
  const db = create({
    schema: { id: 'string', title: 'string', body: 'string' } as const,
    components: { tokenizer: { stemming: true, language: french, stemmer: frenchStemmer } },
  })
  await insertMultiple(db, records.map(searchedFields))
  return (q) => {
    // Without a term Orama lists every document; the tables count that as an answer, as for the others.
    const result = oramaSearch(db, {
      term: q,
      properties: ['title', 'body'],
      boost: { title: 2 },
      threshold: 1,
      limit: FIRST_PAGE_SIZE,
    })
    if (result instanceof Promise) throw new Error('Orama: a synchronous search was expected')
    return { ids: result.hits.map((h) => h.document.id), total: result.count }
  }
}

/**
 * PostgreSQL's French full-text search over the same records, in a schema of its own dropped at
 * close: the `french` configuration (Snowball stemmer, French stop words) with `unaccent` before it
 * when the server has that extension, titles weighted A and the rest B, ranked by `ts_rank_cd`.
 * Two readings of the query: `websearch_to_tsquery` as PostgreSQL gives it (AND of the words), and
 * the same words joined by OR. Undefined when no server answers at `url`.
 */
export async function postgresPeers(records: readonly Fact[], url: string): Promise<System[] | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 })
  try {
    await client.connect()
  } catch {
    return undefined
  }
  const schema = `relevance_${process.pid}`
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`)
  let config = 'french'
  try {
    await client.query(`CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA ${schema}`)
    await client.query(
      `CREATE TEXT SEARCH CONFIGURATION ${schema}.fr (COPY = french);
       ALTER TEXT SEARCH CONFIGURATION ${schema}.fr ALTER MAPPING FOR hword, hword_part, word WITH ${schema}.unaccent, french_stem`,
    )
    config = `${schema}.fr`
  } catch {
    // No unaccent here (or it lives in another schema): French without accent folding.
  }
  await client.query(`CREATE TABLE ${schema}.records (id text PRIMARY KEY, document tsvector NOT NULL)`)
  for (const record of records) {
    const { id, title, body } = searchedFields(record)
    await client.query(
      `INSERT INTO ${schema}.records VALUES ($1, setweight(to_tsvector('${config}', $2), 'A') || setweight(to_tsvector('${config}', $3), 'B'))`,
      [id, title, body],
    )
  }
  const reading = (combine: 'AND' | 'OR') =>
    combine === 'AND'
      ? `websearch_to_tsquery('${config}', $1)`
      : `replace(websearch_to_tsquery('${config}', $1)::text, ' & ', ' | ')::tsquery`
  const system = (combine: 'AND' | 'OR'): System => ({
    name: `PostgreSQL french, ${combine}`,
    search: async (q) => {
      const { rows } = await client.query<{ id: string; total: string }>(
        `SELECT id, count(*) OVER () AS total FROM ${schema}.records, (SELECT ${reading(combine)} AS query) AS q
         WHERE document @@ q.query ORDER BY ts_rank_cd(document, q.query) DESC, id LIMIT ${FIRST_PAGE_SIZE}`,
        [q],
      )
      return { ids: rows.map((r) => r.id), total: rows.length === 0 ? 0 : Number(rows[0]!.total) }
    },
  })
  const [and, or] = [system('AND'), system('OR')]
  or.close = async () => {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    await client.end()
  }
  return [or, and]
}

/** A synchronous search as a System. */
export const systemOf = (name: string, search: SearchFirstPage): System => ({
  name,
  search: async (q) => search(q),
})
