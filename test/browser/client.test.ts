/**
 * The reference client in a real browser (Debian's Chromium, driven by playwright-core): the page
 * and the API are on different origins, so this exercises CORS, `credentials: 'omit'`, the
 * automatic browser mode and a Retry-After readable from another site.
 */
import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { build } from 'esbuild'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/test-server.js'

const CHROMIUM = '/usr/bin/chromium'
const available = existsSync(CHROMIUM)
if (!available) {
  if (process.env.CI) throw new Error(`${CHROMIUM} is missing: CI installs Debian's chromium (see .ci/run)`)
  console.warn(
    `SKIPPED: browser tests (no ${CHROMIUM}; apt-get install -y chromium, or set CI=1 to make this a failure)`,
  )
}

let api: TestServer
let site: Server
let siteUrl: string
let browser: Browser
let page: Page

beforeAll(async () => {
  if (!available) return
  api = await startTestServer({ RATE_LIMIT_PER_MINUTE: '40' })
  // What a browser application would ship: the client bundled for the browser, no Node built-ins.
  const bundle = await build({
    entryPoints: [new URL('../../src/client/index.ts', import.meta.url).pathname],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
  })
  const script = bundle.outputFiles[0]!.text
  site = createServer((req, res) => {
    if (req.url === '/client.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script)
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>reuser</title>')
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  page = await browser.newPage()
  await page.goto(siteUrl)
}, 60_000)
afterAll(async () => {
  await browser?.close()
  site?.close()
  await api?.close()
})

/**
 * Runs `body` in the page with `client` (a RecordsClient on the API's origin) in scope. Passed as a
 * string: a function would be rewritten by the test runner's module transform before reaching the page.
 */
const inPage = <T>(body: string): Promise<T> =>
  page.evaluate(`(async () => {
    const { RecordsClient, RateLimitError } = await import(${JSON.stringify(`${siteUrl}/client.js`)})
    const client = new RecordsClient({ baseUrl: ${JSON.stringify(`${api.url}/api/v1`)} })
    ${body}
  })()`) as Promise<T>

describe.runIf(available)('RecordsClient in Chromium, cross-origin', () => {
  it('reads the catalogue, searches and reads a record across origins', async () => {
    const result = await inPage<{ total: number; ids: string[]; title: string; mode: string }>(`
      const catalogue = await client.catalogue()
      const page = await client.search({ q: 'alcoolémie', kind: 'fact' })
      const record = await client.get(page.results[0].id)
      return { total: catalogue.records.total, ids: page.results.map((r) => r.id), title: record.title, mode: client.mode }
    `)
    expect(result).toEqual({
      total: 13,
      ids: ['fait-fab1ae2fa3566c3d'],
      title: "Taux d'alcoolémie du permis probatoire",
      mode: 'browser',
    })
  })

  it('pages the whole catalogue with all()', async () => {
    const ids = await inPage<string[]>(
      `const ids = []; for await (const r of client.all()) ids.push(r.id); return ids`,
    )
    expect(new Set(ids).size).toBe(13)
  })

  it('reads Retry-After from another origin when the quota is spent', async () => {
    const outcome = await inPage<{ name: string; status: number; retryAfterMs: number }>(`
      // Pacing off: a paced client keeps within the quota, and this test means to spend it.
      const strict = new client.constructor({ baseUrl: client.baseUrl, maxRetries: 0, requestsPerMinute: 0 })
      for (let i = 0; i < 60; i++) {
        try { await strict.catalogue() } catch (err) {
          return { name: err.constructor.name, status: err.status, retryAfterMs: err.retryAfterMs }
        }
      }
      return { name: 'none', status: 0, retryAfterMs: 0 }
    `)
    expect(outcome.name).toBe('RateLimitError')
    expect(outcome.status).toBe(429)
    expect(outcome.retryAfterMs).toBeGreaterThanOrEqual(1_000)
    expect(outcome.retryAfterMs).toBeLessThanOrEqual(60_000)
  })
})
