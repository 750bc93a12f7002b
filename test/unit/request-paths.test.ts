/**
 * The two request paths answer alike, in memory, in the fast tier: two services that differ only in
 * the fast path being on or off are each handed the same raw requests on in-memory connections
 * (test/support/in-process.ts, through the front door as on a socket), and
 * every answer must be the same bytes (Date and the quota's clock masked). The requests are generated:
 * every path and parameter of the served OpenAPI document, each with valid, invalid, repeated and
 * missing values and the live-read variants, in every method, encoding and condition, plus the pages,
 * the discovery documents, the operational endpoints and MCP calls in both eras. A new route or
 * parameter is compared as soon as the OpenAPI document has it. (test/e2e/fast-path.test.ts keeps the
 * same comparison over real sockets, pipelined on one connection.)
 *
 * A quick share here (each target once, its method and encoding rotating); every request in every
 * method and encoding in request-paths.scale.test.ts (test/support/properties/request-paths.ts).
 */
import { describe, expect, it } from 'vitest'
import {
  RECORD,
  apiRequests,
  exchange,
  expectPathsAgree,
  generatedRequests,
  useBothPaths,
} from '../support/properties/request-paths.js'

const both = useBothPaths()

describe('the fast path against the framework, in memory', () => {
  it('generates its API requests from the OpenAPI document: every path and query parameter', () => {
    expect(apiRequests(both.doc).length).toBeGreaterThan(500)
    // The share this file compares holds each of them too.
    const requests = generatedRequests(both.doc, { quick: true })
    for (const [template, operations] of Object.entries(both.doc.paths)) {
      expect(
        requests.some((r) => r.target.startsWith(template.replace('{id}', RECORD))),
        template,
      ).toBe(true)
      for (const p of operations.get?.parameters ?? [])
        if (p.in === 'query')
          expect(
            requests.some((r) => r.target.includes(`${p.name}=`)),
            `${template} ${p.name}`,
          ).toBe(true)
    }
  })

  it('answers the generated requests with the same bytes, twice (the second time from prepared answers)', async () => {
    await expectPathsAgree(both.on, both.off, generatedRequests(both.doc, { quick: true }))
    // Most of its time is each page's first rendering in each service (/docs, /, /llms.txt): 4 s of
    // the first round at a load average of 20, where the API's requests took 0.1 s. Room for that.
  }, 30_000)

  it('answers conditional requests alike: 304 for the tag of the encoding asked, 200 otherwise', async () => {
    for (const target of [
      '/api/v1/?po_live=1',
      `/api/v1/facts/${RECORD}?po_live=1`,
      '/api/v1/facts?q=vitesse&po_live=1',
      '/api/v1/openapi.json?po_live=1',
    ]) {
      for (const encoding of [{}, { 'accept-encoding': 'br' }, { 'accept-encoding': 'gzip' }] as Record<
        string,
        string
      >[]) {
        const first = await exchange(both.on, { method: 'GET', target, headers: encoding })
        await exchange(both.off, { method: 'GET', target, headers: encoding })
        const tag = /\r\netag: ([^\r]*)/i.exec(first)![1]!
        for (const ifNoneMatch of [tag, `W/${tag}`, '"other"', `"x", ${tag}`, '*']) {
          const request = { method: 'GET', target, headers: { ...encoding, 'if-none-match': ifNoneMatch } }
          expect(await exchange(both.on, request), `${target} ${JSON.stringify(request.headers)}`).toBe(
            await exchange(both.off, request),
          )
        }
      }
    }
  })
})
