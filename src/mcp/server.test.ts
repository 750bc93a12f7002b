/**
 * The MCP server's answers as a model reads them, with the official SDK client over an in-memory
 * transport: ChatGPT's search/fetch shapes, hits with excerpts and statuses, answers bounded in size,
 * errors that teach, the guide, prompts and completion. (Both protocol eras over HTTP: test/e2e/mcp.test.ts.)
 */
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Catalogues } from '../core/api/catalogue.js'
import { LocalRecordReader } from '../core/api/reader.js'
import type { Fact } from '../core/records/record.js'
import { RecordIndex } from '../core/search/record-index.js'
import { LiveRecords } from '../core/snapshots/live-records.js'
import { MAX_ANSWER_CHARS } from './budget.js'
import { MAX_INSTRUCTIONS_BYTES } from './guide.js'
import { buildMcpServer } from './server.js'

const fixture = JSON.parse(
  readFileSync(new URL('../../test/fixtures/records.small.json', import.meta.url), 'utf8'),
) as Fact[]
const RULE = 'fait-643b555e754f953d' // Vitesse maximale en agglomération
const LONG = 'page-a5f4eb4f37c10a69' // given a long text below
const STALE = 'fait-95eb3cd35d3a8f78' // given a verification older than 12 months below
const PAGE = (id: string) => `https://records.example.org/fiches/${id}`
const NOW = new Date('2026-11-28T12:00:00Z')

type Json = Record<string, any>
let client: Client
let longText: string

beforeAll(async () => {
  longText = Array.from(
    { length: 600 },
    (_, i) => `Phrase ${i} sur l'insertion et la voie d'accélération.`,
  ).join(' ')
  const records = fixture.map((r) =>
    r.id === LONG
      ? { ...r, text: longText, modified_at: '2026-11-01T08:00:00Z' }
      : r.id === STALE
        ? { ...r, verified_at: '2025-06-24' }
        : r,
  )
  const live = new LiveRecords()
  live.swap(RecordIndex.build({ records, publishedAt: '2026-11-20T09:00:00Z' }))
  const reader = new LocalRecordReader(
    live,
    new Catalogues({ requestsPerMinute: 120, contact: 'c@example.org' }),
  )
  const server = await buildMcpServer(reader, {
    version: '0.0.0',
    recordPage: (r) => PAGE(r.id),
    now: () => NOW,
  })
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  client = new Client({ name: 'test', version: '1' })
  await client.connect(clientSide)
})
afterAll(() => client?.close())

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as Json
const textOf = (result: Json): string => result.content[0].text

describe("ChatGPT's search and fetch", () => {
  it('search answers one text block holding {results: [{id, title, url}]}, url the record page', async () => {
    const result = await call('search', { query: 'vitesse en agglomération' })
    expect(result.content).toHaveLength(1)
    expect(result.content[0].type).toBe('text')
    const body = JSON.parse(textOf(result))
    expect(Object.keys(body)).toEqual(['results'])
    expect(body.results[0]).toEqual({ id: RULE, title: 'Vitesse maximale en agglomération', url: PAGE(RULE) })
    for (const hit of body.results) expect(Object.keys(hit)).toEqual(['id', 'title', 'url'])
  })
  it('fetch answers one text block holding {id, title, text, url, metadata}, with status, verification, sources and attribution', async () => {
    const result = await call('fetch', { id: RULE })
    expect(result.content).toHaveLength(1)
    const doc = JSON.parse(textOf(result))
    expect(Object.keys(doc)).toEqual(['id', 'title', 'text', 'url', 'metadata'])
    const record = fixture.find((r) => r.id === RULE)!
    expect(doc).toMatchObject({ id: RULE, title: record.title, text: record.text, url: PAGE(RULE) })
    expect(doc.metadata).toMatchObject({
      kind: 'fact',
      status: 'official_rule',
      verified_at: record.verified_at,
      original_url: record.url,
      attribution: `Source : ${record.title} — ${record.url}`,
    })
    expect(doc.metadata.status_text).toMatch(
      /^règle officielle, vérifiée il y a \d+ (mois|jours|ans?) sur le texte officiel$/,
    )
    expect(doc.metadata.official_sources).toEqual(
      record.sources.filter((s) => s.type === 'official').map((s) => ({ label: s.label, url: s.url })),
    )
  })
  it('search takes a long query (deep research sends paragraphs) and searches its first words', async () => {
    const query = `vitesse maximale en agglomération ${'et encore des précisions sur le contexte de la question '.repeat(20)}`
    const body = JSON.parse(textOf(await call('search', { query })))
    expect(body.results[0].id).toBe(RULE)
  })
  it('are read-only, and search/fetch say what they return', async () => {
    const { tools } = await client.listTools()
    for (const name of ['search', 'fetch']) {
      const tool = tools.find((t) => t.name === name)!
      expect(tool.annotations).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        openWorldHint: false,
      })
      expect(Object.keys(tool.inputSchema.properties!)).toEqual([name === 'search' ? 'query' : 'id'])
    }
  })
})

describe('an official rule verified more than 12 months ago', () => {
  it('is flagged "à revérifier" in the status of every answer that gives one', async () => {
    const flagged =
      'règle officielle, vérifiée il y a 1 an sur le texte officiel, à revérifier (vérification de plus de 12 mois)'
    expect(JSON.parse(textOf(await call('fetch', { id: STALE }))).metadata.status_text).toBe(flagged)
    expect(textOf(await call('get_fact', { id: STALE }))).toContain(`Status: ${flagged}`)
    expect(JSON.parse(textOf(await call('fetch', { id: RULE }))).metadata.status_text).not.toContain(
      'revérifier',
    )
  })
})

describe('search hits sized for a model', () => {
  it('carry their status in words, the matched passage with the words in bold, and a link to the record resource', async () => {
    const result = await call('search_facts', { q: 'insertion autoroute' })
    const text = textOf(result)
    expect(text).toMatch(/Status: leçon \(explication\), pas une règle officielle/)
    expect(text).toMatch(/\*\*insertion\*\*/)
    const link = result.content.find((c: Json) => c.type === 'resource_link' && c.name === LONG)
    expect(link).toEqual({
      type: 'resource_link',
      uri: `reference-records://facts/${LONG}`,
      name: LONG,
      title: "S'insérer sur l'autoroute",
      mimeType: 'application/json',
      annotations: { lastModified: '2026-11-01T08:00:00Z' },
    })
  })
  it('keep every answer under the budget, saying what was left out and the call that gets it', async () => {
    const page = await call('search_facts', { q: 'la', limit: 50, match: 'best' })
    expect(textOf(page).length).toBeLessThanOrEqual(MAX_ANSWER_CHARS)
    const record = await call('get_fact', { id: LONG })
    const first = textOf(record)
    expect(first.length).toBeLessThanOrEqual(MAX_ANSWER_CHARS + 1000)
    const next = Number(/"text_from": (\d+)\}/.exec(first)![1])
    expect(first).toContain(
      `[Text cut at ${next} of ${longText.length} characters: call get_fact with {"id": "${LONG}", "text_from": ${next}} for the rest.]`,
    )
    // Reading on joins the text without a gap or an overlap.
    const rest = textOf(await call('get_fact', { id: LONG, text_from: next }))
    expect(rest).toContain(`[…text from character ${next}] ${longText.slice(next, next + 100)}`)
    expect(textOf(await call('get_fact', { id: LONG, text_from: longText.length + 5 }))).toContain(
      `[The text ends at character ${longText.length}: nothing from ${longText.length + 5}.]`,
    )
    const fetched = JSON.parse(textOf(await call('fetch', { id: LONG })))
    expect(fetched.text.length).toBeLessThanOrEqual(MAX_ANSWER_CHARS + 200)
    expect(fetched.text).toContain('"text_from"')
  })
  it('cut the structured results with the text: both hold the same records', async () => {
    const many = fixture.map((r, i) => ({
      ...r,
      id: `page-${String(i).padStart(16, '0')}`,
      kind: 'lesson' as const,
      text: `${'Texte long sur la conduite. '.repeat(40)}`,
    }))
    const live = new LiveRecords()
    live.swap(
      RecordIndex.build({
        records: [...many, ...many.map((r, i) => ({ ...r, id: `page-${String(i + 50).padStart(16, '0')}` }))],
      }),
    )
    const server = await buildMcpServer(
      new LocalRecordReader(live, new Catalogues({ requestsPerMinute: 0, contact: 'c' })),
      { version: '0', recordPage: (r) => r.url },
    )
    const [a, b] = InMemoryTransport.createLinkedPair()
    await server.connect(a)
    const other = new Client({ name: 't', version: '1' })
    await other.connect(b)
    const result = (await other.callTool({
      name: 'search_facts',
      arguments: { q: 'conduite', limit: 26 },
    })) as Json
    const shown = [...textOf(result).matchAll(/ · id (\S+) · /g)].map((m) => m[1])
    expect(result.structuredContent.results.map((r: Fact) => r.id)).toEqual(shown)
    expect(result.content.filter((c: Json) => c.type === 'resource_link')).toHaveLength(shown.length)
    await other.close()
  })
})

describe('errors that teach', () => {
  it('reads a record page URL, an API URL or a resource URI as the id', async () => {
    for (const id of [
      PAGE(RULE),
      `https://records.example.org/api/v1/facts/${RULE}?po_live=1`,
      `reference-records://facts/${RULE}`,
      RULE.toUpperCase(),
    ]) {
      expect((await call('get_fact', { id })).structuredContent?.id, id).toBe(RULE)
      expect(JSON.parse(textOf(await call('fetch', { id }))).id, id).toBe(RULE)
    }
  })
  it('reads the URL of an original page as its record', async () => {
    const record = fixture.find((r) => r.id === RULE)!
    expect((await call('get_fact', { id: record.url })).structuredContent.id).toBe(RULE)
  })
  it('answers a title with what an id looks like, the records it may mean and the search to make', async () => {
    const result = await call('get_fact', { id: 'Vitesse maximale en agglomération' })
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toBeUndefined()
    const text = textOf(result)
    expect(text).toContain('An id is a kind prefix and 16 hexadecimal digits')
    expect(text).toContain(`- ${RULE} « Vitesse maximale en agglomération »`)
    expect(text).toContain('search_facts {"q": "Vitesse maximale en agglomération"}')
  })
  it('answers a near-miss id and an unknown id with what to do next', async () => {
    expect(textOf(await call('fetch', { id: RULE.slice(0, -1) }))).toContain(
      'An id is a kind prefix and 16 hexadecimal digits',
    )
    const unknown = await call('fetch', { id: 'fait-0000000000000000' })
    expect(unknown.isError).toBe(true)
    expect(textOf(unknown)).toBe(
      'No record with id "fait-0000000000000000": it may have been withdrawn. Find ids with search_facts.',
    )
  })
})

describe('what the server says about itself', () => {
  it('instructions under 2 KB: what the records cover, with counts, and to search first and cite', () => {
    const instructions = client.getInstructions()!
    expect(Buffer.byteLength(instructions)).toBeLessThanOrEqual(MAX_INSTRUCTIONS_BYTES)
    expect(instructions).toContain('3 official rules')
    expect(instructions).toMatch(/Search first/)
    expect(instructions).toMatch(/Never conclude that a rule is not covered before searching/)
    expect(instructions).toMatch(/Cite every record/)
  })
  it('a guide resource in Markdown, listed first', async () => {
    const { resources } = await client.listResources()
    expect(resources[0]).toMatchObject({ uri: 'reference-records://guide', mimeType: 'text/markdown' })
    const guide = (await client.readResource({ uri: 'reference-records://guide' })).contents[0] as {
      text: string
    }
    expect(guide.text).toMatch(/^# Reference records: a guide for assistants/)
    expect(guide.text).toContain('- 3 official rules')
    expect(guide.text).toContain('## Reuse conditions')
    expect(guide.text).toContain('`official_rule`')
  })
  it('two prompts in French that tell the method', async () => {
    const { prompts } = await client.listPrompts()
    expect(prompts.map((p) => p.name).sort()).toEqual(['answer_road_question', 'explain_rule_for_learner'])
    const prompt = await client.getPrompt({
      name: 'answer_road_question',
      arguments: { question: 'Peut-on téléphoner au volant ?' },
    })
    const text = (prompt.messages[0]!.content as { text: string }).text
    expect(text).toContain('« Peut-on téléphoner au volant ? »')
    expect(text).toContain('Cherche d’abord avec l’outil search_facts')
    expect(text).toContain('n’invente pas de règle')
  })
  it('completes a record id by its prefix and by title words', async () => {
    const ref = { type: 'ref/resource' as const, uri: 'reference-records://facts/{id}' }
    const byPrefix = await client.complete({ ref, argument: { name: 'id', value: 'fait-6' } })
    expect(byPrefix.completion.values).toEqual([RULE])
    const byWords = await client.complete({ ref, argument: { name: 'id', value: 'priorité droite' } })
    expect(byWords.completion.values[0]).toBe('page-4eb2aa72a21336ea')
    const forPrompt = await client.complete({
      ref: { type: 'ref/prompt', name: 'explain_rule_for_learner' },
      argument: { name: 'rule', value: 'expertise-' },
    })
    expect(forPrompt.completion.values).toEqual(['expertise-fait-edae550e44cf34df'])
  })
})
