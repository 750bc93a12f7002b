/**
 * A hostile load costs /healthz no more than an ordinary load of the same shape (issue 32, issue 43
 * finding 12). test/e2e/hostile-load.test.ts checks that /healthz answers between the hostile
 * requests; this file compares how long it waits then, in one run, with how long it waits while the
 * same number of clients send the same number of ordinary requests: a busy machine slows both
 * alike, a request that held the event loop (a search page spending seconds in a 320 KB record, a
 * batch of a hundred calls run on one turn) would not. The ordinary figure is taken as at least
 * REFERENCE_FLOOR_MS: below it, a slowest answer measures the scheduler rather than the service.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Fact } from '../../src/core/records/record.js'
import { temporaryFiles } from '../support/temporary-files.js'
import { SMALL_FIXTURE, startTestServer, type TestServer } from '../support/test-server.js'

/** How many times longer /healthz may wait under the hostile load than under the ordinary one. */
const RATIO = 20
const REFERENCE_FLOOR_MS = 25

const fixture = JSON.parse(readFileSync(SMALL_FIXTURE, 'utf8')) as Fact[]
const WORDS = 'vitesse limitée sur autoroute par temps de pluie prudence freinage distance '
const large: Fact = {
  ...fixture[0]!,
  id: 'fait-00000000000000ff',
  title: 'Une fiche de 320 Ko de mots répétés',
  text: WORDS.repeat(Math.ceil(320_000 / WORDS.length)).slice(0, 320_000),
}

let server: TestServer
beforeAll(async () => {
  const { write } = temporaryFiles('rr-hostile-timing-', 'ndjson')
  server = await startTestServer({
    RECORDS_FILE: write([...fixture, large].map((r) => JSON.stringify(r)).join('\n')),
  })
})
afterAll(() => server?.close())

/** The slowest /healthz answer while `load` runs, polled as a monitoring probe would. */
async function slowestHealthzDuring(load: () => Promise<unknown>): Promise<number> {
  let done = false
  const running = load().finally(() => (done = true))
  let slowest = 0
  while (!done) {
    const started = performance.now()
    expect((await server.raw('/healthz')).status).toBe(200)
    slowest = Math.max(slowest, performance.now() - started)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  await running
  return slowest
}

const pages = (queries: string[]) => async () =>
  Promise.all(
    Array.from({ length: 3 }, async (_, client) => {
      for (let i = client; i < queries.length; i += 3)
        expect((await server.raw(`/recherche?q=${encodeURIComponent(queries[i]!)}`)).status).toBe(200)
    }),
  )

const mcp = (body: unknown) =>
  server.raw('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  })
const call = (id: number, q: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'search_facts', arguments: { q, limit: 50 } },
})
const randomWords = (n: number) =>
  Array.from({ length: n }, () => Math.random().toString(36).slice(2, 8)).join(' ')
/** Words of the records, for queries as long as the hostile ones that a reader could type. */
const VOCABULARY = [
  ...new Set(fixture.flatMap((r) => `${r.title} ${r.text}`.toLowerCase().match(/\p{L}{4,}/gu) ?? [])),
]
const recordWords = (n: number) =>
  Array.from({ length: n }, () => VOCABULARY[Math.floor(Math.random() * VOCABULARY.length)]).join(' ')

/** Six requests, then four clients of fifteen calls each: what `one` and `each` send. */
const mcpLoad = (one: () => unknown, each: (client: number, i: number) => unknown) => async () =>
  Promise.all([
    ...Array.from({ length: 6 }, async () => (await mcp(one())).status),
    ...Array.from({ length: 4 }, async (_, client) => {
      for (let i = 0; i < 15; i++) await mcp(each(client, i))
    }),
  ])

function compare(what: string, ordinary: number, hostile: number): void {
  const reference = Math.max(ordinary, REFERENCE_FLOOR_MS)
  console.log(
    `${what}: slowest /healthz ${hostile.toFixed(0)} ms under the hostile load, ${ordinary.toFixed(0)} ms under the ordinary one (×${(hostile / reference).toFixed(1)} of ${reference.toFixed(0)} ms, at most ×${RATIO})`,
  )
  expect(hostile).toBeLessThanOrEqual(RATIO * reference)
}

it('search pages over a 320 KB record hold /healthz no longer than ordinary pages do', async () => {
  const words = ['vitesse', 'pluie', 'prudence', 'freinage', 'distance', 'autoroute']
  const hostile = words.flatMap((a, i) => words.slice(i + 1).map((b) => `${a} ${b}`)).slice(0, 12)
  // The fixture's own words, which the large record does not hold.
  const ordinary = ['alcoolémie', 'permis', 'probatoire', 'alcool', 'taux', 'conduite']
  const ordinaryPairs = ordinary.flatMap((a, i) => ordinary.slice(i + 1).map((b) => `${a} ${b}`)).slice(0, 12)
  await pages(ordinaryPairs)() // warm-up: the first page compiles the templates
  const reference = await slowestHealthzDuring(pages(ordinaryPairs))
  compare('search pages', reference, await slowestHealthzDuring(pages(hostile)))
}, 60_000)

it('refused batches and large MCP calls hold /healthz no longer than ordinary calls do', async () => {
  const batch = Array.from({ length: 100 }, (_, i) => call(i, `${randomWords(3)} vitesse`))
  await mcp(call(0, 'vitesse')) // warm-up
  const reference = await slowestHealthzDuring(
    mcpLoad(
      () => call(0, `${recordWords(3)} vitesse`),
      (client, i) => call(client * 100 + i, `vitesse pluie ${recordWords(30)}`.slice(0, 300)),
    ),
  )
  const hostile = await slowestHealthzDuring(
    mcpLoad(
      () => batch,
      (client, i) => call(client * 100 + i, `vitesse pluie ${randomWords(30)}`.slice(0, 300)),
    ),
  )
  compare('MCP', reference, hostile)
}, 60_000)
