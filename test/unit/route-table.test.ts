/**
 * The route table, listed, checked through the front door (test/support/in-process.ts): every
 * address answers each of its own methods and refuses every other with 405, its `Allow` field and
 * the error body, uncounted; an unknown path beneath a mount is the site's JSON 404, with the API's
 * CORS, counted as under the mount (docs/design.md "The route table"); the site's 404 page carries
 * the fields the table gives a page at its path, the JSON 404 those of the path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { loadInProcess } from '../../src/core/snapshots/load-snapshot.js'
import type { Route } from '../../src/http/route-table.js'
import { createService, type Service } from '../../src/service/service.js'
import { send } from '../support/in-process.js'

const FIXTURE = new URL('../fixtures/records.small.json', import.meta.url).pathname
/** Methods tried on every address: the ones any route takes, and a few none does. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'PROPFIND']

let service: Service
beforeAll(async () => {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    RECORDS_FILE: FIXTURE,
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: 'https://reference.example.org',
  })
  service = await createService(config, { load: loadInProcess })
})
afterAll(() => service?.close())

/** A path the address matches: a parameter and the rest of a `*` filled in. */
const pathOf = (route: Route) => route.url.replace(/:\w+/g, 'sample').replace(/\*$/, 'sample')

/** The methods an address takes as the contract reads them (docs/contract.md "Methods"): HEAD with GET. */
const takes = (route: Route) => route.methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]))

/** What a request to a mount needs to be one it reads (MCP wants JSON-RPC, and both media types). */
const bodyFor = (route: Route, method: string) =>
  route.mount === undefined || method !== 'POST'
    ? {}
    : {
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      }

describe('the route table', () => {
  it('lists the API, the pages, the discovery documents, the operational endpoints and MCP', () => {
    const urls = service.routes.routes.map((r) => r.url)
    for (const url of [
      '/api/v1/facts',
      '/api/v1/facts/:id',
      '/recherche',
      '/sitemap.xml',
      '/healthz',
      '/mcp',
    ])
      expect(urls).toContain(url)
    expect(service.routes.routes.find((r) => r.url === '/mcp')!.mount).toBeDefined()
  })

  it('answers every address in its own methods and refuses the others: 405, Allow, the error body', async () => {
    for (const route of service.routes.routes) {
      const path = pathOf(route)
      for (const method of METHODS) {
        // Sent with po_live=1, so that a live read is answered, not redirected.
        const target = route.liveRead === undefined ? path : `${path}?po_live=1`
        const answer = await send(service.app, { method, target, ...bodyFor(route, method) })
        const context = `${method} ${target}`
        if (takes(route).includes(method)) {
          expect(answer.status, context).not.toBe(405)
          continue
        }
        expect(answer.status, context).toBe(405)
        expect(answer.headers.allow, context).toBe([...takes(route), 'OPTIONS'].join(', '))
        // A refused method is not counted (docs/contract.md "Quota").
        expect(answer.headers.ratelimit, context).toBeUndefined()
        if (method === 'HEAD') continue
        const body = answer.json() as { error?: { code?: string } }
        // A mount refuses in its own error body (MCP's JSON-RPC error), the others in the contract's.
        if (route.mount === undefined) expect(body.error?.code, context).toBe('method_not_allowed')
        else expect(answer.text, context).toContain('not allowed')
      }
    }
  })

  it('gives an unknown path beneath a mount the site 404 with the API CORS, counted as under the mount', async () => {
    const answer = await send(service.app, { target: '/mcp/unknown' })
    expect(answer.status).toBe(404)
    expect(answer.json()).toMatchObject({ error: { code: 'not_found' } })
    const api = await send(service.app, { target: '/api/v1/unknown' })
    expect(answer.headers['access-control-expose-headers']).toBe(api.headers['access-control-expose-headers'])
    expect(answer.headers.ratelimit).toBeDefined()
    const mcp = await send(service.app, { method: 'OPTIONS', target: '/mcp' })
    const beneath = await send(service.app, { method: 'OPTIONS', target: '/mcp/unknown' })
    expect(mcp.headers['access-control-allow-methods']).toBe('POST, OPTIONS')
    expect(beneath.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS')
  })

  it('gives the site 404 page the fields the table gives a page at its path, and the JSON 404 those of the path', async () => {
    const browser = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }
    for (const target of ['/recherch', '/nowhere/at/all', '/mcp/unknown', '/reference/x', '/metrics/x']) {
      const addressed = service.routes.lookup(target)
      const page = await send(service.app, { target, headers: browser })
      expect([page.status, page.headers['content-type']], target).toEqual([404, 'text/html; charset=utf-8'])
      for (const [name, value] of Object.entries(addressed.notFoundPage!.response))
        expect(page.headers[name], `${target} ${name}`).toBe(value)
      // The pages' policy: the page's stylesheet may load, which the JSON answer's policy would block.
      expect(page.headers['content-security-policy'], target).toContain("style-src 'self'")
      const json = await send(service.app, { target })
      expect(json.headers['content-type'], target).toBe('application/json; charset=utf-8')
      for (const [name, value] of Object.entries(addressed.cors.response))
        expect(json.headers[name], `${target} ${name}`).toBe(value)
    }
    // Under the API the 404 is JSON only: the table gives no page there.
    expect(service.routes.lookup('/api/v1/nope').notFoundPage).toBeUndefined()
    const api = await send(service.app, { target: '/api/v1/nope', headers: browser })
    expect(api.headers['content-type']).toBe('application/json; charset=utf-8')
  })
})
