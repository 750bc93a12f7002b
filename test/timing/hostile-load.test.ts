/**
 * A hostile load costs /healthz no more than an ordinary load of the same shape (issue 32, issue 43
 * finding 12). test/e2e/hostile-load.test.ts checks that /healthz answers between the hostile
 * requests; this file compares how long it waits then, in one run, with how long it waits while the
 * same number of clients send the same number of ordinary requests: a busy machine slows both
 * alike, a request that held the event loop (a search page spending seconds in a 320 KB record, a
 * batch of a hundred calls run on one turn) would not. The ordinary figure is taken as at least
 * REFERENCE_FLOOR_MS: below it, a slowest answer measures the scheduler rather than the service.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  FIXTURE,
  LARGE_RECORD_WORDS,
  healthzDuring,
  hostileRecordsFile,
  mcpLoad,
  mcpPost,
  pairsOf,
  randomWords,
  searchCall,
  searchPages,
} from '../support/hostile-load.js'
import { startTestServer, type TestServer } from '../support/test-server.js'

/** How many times longer /healthz may wait under the hostile load than under the ordinary one. */
const RATIO = 20
const REFERENCE_FLOOR_MS = 25

let server: TestServer
beforeAll(async () => {
  server = await startTestServer({ RECORDS_FILE: hostileRecordsFile('rr-hostile-timing-') })
})
afterAll(() => server?.close())

/** The slowest /healthz answer while `load` runs. */
const slowestHealthzDuring = async (load: () => Promise<unknown>) =>
  (await healthzDuring(server, load)).slowestMs

const pages = (queries: string[]) => searchPages(server, queries, (res) => expect(res.status).toBe(200))

/** Words of the records, for queries as long as the hostile ones that a reader could type. */
const VOCABULARY = [
  ...new Set(FIXTURE.flatMap((r) => `${r.title} ${r.text}`.toLowerCase().match(/\p{L}{4,}/gu) ?? [])),
]
const recordWords = (n: number) =>
  Array.from({ length: n }, () => VOCABULARY[Math.floor(Math.random() * VOCABULARY.length)]).join(' ')

function compare(what: string, ordinary: number, hostile: number): void {
  const reference = Math.max(ordinary, REFERENCE_FLOOR_MS)
  console.log(
    `${what}: slowest /healthz ${hostile.toFixed(0)} ms under the hostile load, ${ordinary.toFixed(0)} ms under the ordinary one (×${(hostile / reference).toFixed(1)} of ${reference.toFixed(0)} ms, at most ×${RATIO})`,
  )
  expect(hostile).toBeLessThanOrEqual(RATIO * reference)
}

it('search pages over a 320 KB record hold /healthz no longer than ordinary pages do', async () => {
  const hostile = pairsOf(LARGE_RECORD_WORDS)
  // The fixture's own words, which the large record does not hold.
  const ordinary = pairsOf(['alcoolémie', 'permis', 'probatoire', 'alcool', 'taux', 'conduite'])
  await pages(ordinary)() // warm-up: the first page compiles the templates
  const reference = await slowestHealthzDuring(pages(ordinary))
  compare('search pages', reference, await slowestHealthzDuring(pages(hostile)))
}, 60_000)

it('refused batches and large MCP calls hold /healthz no longer than ordinary calls do', async () => {
  const batch = Array.from({ length: 100 }, (_, i) => searchCall(i, `${randomWords(3)} vitesse`))
  await mcpPost(server, searchCall(0, 'vitesse')) // warm-up
  const reference = await slowestHealthzDuring(
    mcpLoad(
      server,
      () => searchCall(0, `${recordWords(3)} vitesse`),
      (client, i) => searchCall(client * 100 + i, `vitesse pluie ${recordWords(30)}`.slice(0, 300)),
    ),
  )
  const hostile = await slowestHealthzDuring(
    mcpLoad(
      server,
      () => batch,
      (client, i) => searchCall(client * 100 + i, `vitesse pluie ${randomWords(30)}`.slice(0, 300)),
    ),
  )
  compare('MCP', reference, hostile)
}, 60_000)
