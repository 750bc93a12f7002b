/**
 * The hostile loads of issue 32 and what they are measured against, for the e2e test that checks
 * /healthz answers between the hostile requests and the timing test that compares its wait with an
 * ordinary load of the same shape: a record of 320 KB of repeated words searched through the search
 * page, and MCP clients sending batches of a hundred calls (refused) and large single calls.
 */
import { readFileSync } from 'node:fs'
import { expect } from 'vitest'
import type { Fact } from '../../src/core/records/record.js'
import type { CheckedResponse } from './openapi-validator.js'
import { temporaryFiles } from './temporary-files.js'
import { SMALL_FIXTURE, type TestServer } from './test-server.js'

export const FIXTURE = JSON.parse(readFileSync(SMALL_FIXTURE, 'utf8')) as Fact[]

/** The large record's words; every pair of them is a search that walks its 320 KB. */
export const LARGE_RECORD_WORDS = ['vitesse', 'pluie', 'prudence', 'freinage', 'distance', 'autoroute']
export const LARGE_RECORD_TITLE = 'Une fiche de 320 Ko de mots répétés'

const WORDS = 'vitesse limitée sur autoroute par temps de pluie prudence freinage distance '
const large: Fact = {
  ...FIXTURE[0]!,
  id: 'fait-00000000000000ff',
  title: LARGE_RECORD_TITLE,
  text: WORDS.repeat(Math.ceil(320_000 / WORDS.length)).slice(0, 320_000),
}

/** An NDJSON file of the small fixture and the large record, for RECORDS_FILE. */
export function hostileRecordsFile(prefix: string): string {
  return temporaryFiles(prefix, 'ndjson').write([...FIXTURE, large].map((r) => JSON.stringify(r)).join('\n'))
}

/** The first `count` pairs of `words`, each a different query (none served from the response cache). */
export const pairsOf = (words: string[], count = 12) =>
  words.flatMap((a, i) => words.slice(i + 1).map((b) => `${a} ${b}`)).slice(0, count)

/**
 * Polls /healthz, as a monitoring probe would, until `load` settles; every answer must be 200.
 * Returns the slowest answer's time and how many were answered while the load still ran.
 */
export async function healthzDuring(
  server: TestServer,
  load: () => Promise<unknown>,
): Promise<{ slowestMs: number; answeredDuringLoad: number }> {
  let done = false
  const running = load().finally(() => (done = true))
  let slowestMs = 0
  let answeredDuringLoad = 0
  while (!done) {
    const started = performance.now()
    expect((await server.raw('/healthz')).status).toBe(200)
    slowestMs = Math.max(slowestMs, performance.now() - started)
    if (!done) answeredDuringLoad++
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  await running
  return { slowestMs, answeredDuringLoad }
}

/** Three clients sharing `queries` on the search page; `check` sees each answer. Returns each page's time. */
export const searchPages =
  (server: TestServer, queries: string[], check: (res: CheckedResponse) => void) => async () => {
    const timings: number[] = []
    await Promise.all(
      Array.from({ length: 3 }, async (_, client) => {
        for (let i = client; i < queries.length; i += 3) {
          const started = performance.now()
          const res = await server.raw(`/recherche?q=${encodeURIComponent(queries[i]!)}`)
          timings.push(performance.now() - started)
          check(res)
        }
      }),
    )
    return timings
  }

export const mcpPost = (server: TestServer, body: unknown) =>
  server.raw('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  })

export const searchCall = (id: number, q: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'search_facts', arguments: { q, limit: 50 } },
})

/** Random words, so that no answer is kept from an earlier call: each one is searched. */
export const randomWords = (n: number) =>
  Array.from({ length: n }, () => Math.random().toString(36).slice(2, 8)).join(' ')

/** Six requests of `one()`, then four clients of fifteen calls `each(client, i)`; returns every status. */
export const mcpLoad =
  (server: TestServer, one: () => unknown, each: (client: number, i: number) => unknown) => async () => {
    const statuses: number[] = []
    await Promise.all([
      ...Array.from({ length: 6 }, async () => statuses.push((await mcpPost(server, one())).status)),
      ...Array.from({ length: 4 }, async (_, client) => {
        for (let i = 0; i < 15; i++) statuses.push((await mcpPost(server, each(client, i))).status)
      }),
    ])
    return statuses
  }
