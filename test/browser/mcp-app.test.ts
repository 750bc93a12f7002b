/**
 * The MCP app's record card in Chromium, as a host shows it: the page the MCP server serves (its
 * ui:// resource, read with the official client) runs in a sandboxed frame (scripts only, an opaque
 * origin) under the Content-Security-Policy its declared CSP gives, and a small host built on ext-apps'
 * own AppBridge passes it a real tool result from the real server. Checks that it renders the
 * record, that axe finds nothing, and that a hostile record runs no script of its own.
 */
import { existsSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { build } from 'esbuild'
import { chromium, type Browser, type Frame, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Fact } from '../../src/core/records/record.js'
import { RECORD_CARD_URI } from '../../src/mcp/app.js'
import { temporaryFiles } from '../support/temporary-files.js'
import { SMALL_FIXTURE, startTestServer, type TestServer } from '../support/test-server.js'

const CHROMIUM = '/usr/bin/chromium'
const available = existsSync(CHROMIUM)
if (!available) {
  if (process.env.CI) throw new Error(`${CHROMIUM} is missing: CI installs Debian's chromium (see .ci/run)`)
  console.warn(`SKIPPED: the MCP app in Chromium (no ${CHROMIUM}; apt-get install -y chromium)`)
}
const AXE = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8')
const RULE = 'fait-fab1ae2fa3566c3d' // Taux d'alcoolémie du permis probatoire, verified 2026-09-15
const HOSTILE_ID = 'fait-00000000000000bb'
const PAYLOAD = `<img src=x onerror="parent.postMessage('pwned','*')"><script>parent.postMessage('pwned','*')</script>`

const fixture = JSON.parse(readFileSync(SMALL_FIXTURE, 'utf8')) as Fact[] | { records: Fact[] }
const records = Array.isArray(fixture) ? fixture : fixture.records
const hostile: Fact = {
  ...records.find((r) => r.id === RULE)!,
  id: HOSTILE_ID,
  title: `Règle ${PAYLOAD}`,
  text: `Texte </script>${PAYLOAD}\n\nSuite <svg onload="parent.postMessage('pwned','*')">`,
  sources: [{ type: 'official', label: `Loi ${PAYLOAD}`, url: 'https://www.legifrance.gouv.fr/x' }],
}

/** The frame's policy, from what the resource declares (no domain: nothing from the network). */
function cspOf(meta: { ui?: { csp?: Record<string, string[]> } } | undefined): string {
  const csp = meta?.ui?.csp ?? {}
  const list = (domains: string[] | undefined) => (domains?.length ? domains.join(' ') : "'none'")
  const resources = csp.resourceDomains?.length ? ` ${csp.resourceDomains.join(' ')}` : ''
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline'${resources}`,
    `style-src 'unsafe-inline'${resources}`,
    `img-src data:${resources}`,
    `connect-src ${list(csp.connectDomains)}`,
    `frame-src ${list(csp.frameDomains)}`,
    `base-uri ${list(csp.baseUriDomains)}`,
  ].join('; ')
}

let api: TestServer
let client: Client
let host: Server
let hostUrl: string
let browser: Browser
let html: string
let contentMeta: { ui?: { csp?: Record<string, string[]>; prefersBorder?: boolean } } | undefined
let mimeType: string | undefined

beforeAll(async () => {
  if (!available) return
  const file = temporaryFiles('mcp-app-', 'json').write(JSON.stringify([...records, hostile]))
  api = await startTestServer({ RECORDS_FILE: file })
  client = new Client({ name: 'app-host-stub', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`)))
  const read = await client.readResource({ uri: RECORD_CARD_URI })
  const content = read.contents[0] as { text: string; mimeType?: string; _meta?: typeof contentMeta }
  html = content.text
  mimeType = content.mimeType
  contentMeta = content._meta
  // The host: ext-apps' AppBridge, talking to the frame by postMessage as the hosts that render apps do.
  const hostScript = (
    await build({
      stdin: {
        contents: `
          import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge'
          window.pwned = 0
          window.addEventListener('message', (e) => { if (e.data === 'pwned') window.pwned++ })
          const frame = document.createElement('iframe')
          frame.title = 'Fiche'
          frame.setAttribute('sandbox', 'allow-scripts')
          frame.src = '/app.html'
          document.body.append(frame)
          const bridge = new AppBridge(null, { name: 'stub', version: '1' }, { openLinks: {} })
          window.appReady = new Promise((resolve) => (bridge.oninitialized = resolve))
          window.show = async (args, result) => {
            await window.appReady
            await bridge.sendToolInput({ arguments: args })
            await bridge.sendToolResult(result)
          }
          void bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow))
        `,
        resolveDir: new URL('../..', import.meta.url).pathname,
        loader: 'js',
      },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
    })
  ).outputFiles[0]!.text
  host = createServer((req, res) => {
    if (req.url === '/host.js')
      return res.writeHead(200, { 'content-type': 'text/javascript' }).end(hostScript)
    if (req.url === '/app.html')
      return res
        .writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': cspOf(contentMeta),
        })
        .end(html)
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><html lang="fr"><title>Hôte</title><script type="module" src="/host.js"></script>')
  })
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
  hostUrl = `http://127.0.0.1:${(host.address() as { port: number }).port}`
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] })
}, 90_000)
afterAll(async () => {
  await browser?.close()
  host?.close()
  await client?.close()
  await api?.close()
})

type Opened = { page: Page; frame: Frame; errors: string[]; requests: string[] }

/** Opens the host, shows `result` (of `tool` called with `args`) in the app's frame, and returns the frame. */
async function show(tool: string, args: Record<string, unknown>): Promise<Opened> {
  const result = await client.callTool({ name: tool, arguments: args })
  const page = await browser.newPage()
  const errors: string[] = []
  const requests: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('request', (r) => requests.push(r.url()))
  await page.goto(`${hostUrl}/`)
  await page.evaluate(`window.show(${JSON.stringify(args)}, ${JSON.stringify(result)})`)
  const frame = page.frames().find((f) => f.url().endsWith('/app.html'))!
  // The app says "Fiche" while it waits for the result.
  await frame.waitForSelector('main h1:not(:text-is("Fiche"))')
  return { page, frame, errors, requests }
}

async function axeViolations(frame: Frame): Promise<string[]> {
  await frame.evaluate(AXE)
  const result = (await frame.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as {
    violations: { id: string; impact: string; nodes: unknown[] }[]
  }
  return result.violations.map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`)
}

describe.runIf(available)('the record card app in a sandboxed frame', () => {
  it('is served as text/html;profile=mcp-app, self-contained, declaring no domain to reach', () => {
    expect(mimeType).toBe('text/html;profile=mcp-app')
    expect(contentMeta?.ui?.csp).toEqual({
      connectDomains: [],
      resourceDomains: [],
      frameDomains: [],
      baseUriDomains: [],
    })
    expect(html).toMatch(/^<!doctype html>\n<html lang="fr">/)
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/i)
  })

  it("renders get_fact's record: title, status, verification age, sources, citation; axe finds nothing", async () => {
    const { page, frame, errors, requests } = await show('get_fact', { id: RULE })
    const text = await frame.locator('main').innerText()
    expect(text).toContain("Taux d'alcoolémie du permis probatoire")
    expect(text).toContain('Règle officielle')
    expect(text).toMatch(/Vérifiée il y a \d+ (jours?|mois|ans?) sur le texte officiel/)
    expect(text).toContain('Sources officielles')
    expect(text).toContain('Code de la route, article R234-1')
    expect(text).toContain(
      "Source : Taux d'alcoolémie du permis probatoire — https://code-et-conduite.example/alcoolemie-permis-probatoire",
    )
    expect(await axeViolations(frame)).toEqual([])
    expect(errors).toEqual([])
    // Nothing but the host page, its script and the app itself: the app fetches nothing.
    expect(requests.map((u) => new URL(u).pathname).sort()).toEqual(['/', '/app.html', '/host.js'])
    await page.close()
  })

  it("lists search_facts' hits, and a hit opens its card; axe finds nothing on either", async () => {
    const { page, frame, errors } = await show('search_facts', { q: "l'alcoolémie", kind: 'fact' })
    expect(await frame.locator('main h1').innerText()).toMatch(/^Fiches trouvées \(\d+\)$/)
    expect(await axeViolations(frame)).toEqual([])
    await frame.getByRole('button', { name: "Taux d'alcoolémie du permis probatoire" }).click()
    expect(await frame.locator('main h1').innerText()).toBe("Taux d'alcoolémie du permis probatoire")
    expect(await axeViolations(frame)).toEqual([])
    await frame.getByRole('button', { name: /Retour aux résultats/ }).click()
    expect(await frame.locator('main h1').innerText()).toMatch(/^Fiches trouvées/)
    expect(errors).toEqual([])
    await page.close()
  })

  it("renders fetch's document as a card too", async () => {
    const { page, frame } = await show('fetch', { id: RULE })
    const text = await frame.locator('main').innerText()
    expect(text).toContain("Taux d'alcoolémie du permis probatoire")
    expect(text).toContain('Règle officielle')
    expect(text).toContain('Code de la route, article R234-1')
    await page.close()
  })

  it('runs no script from a hostile record, and writes its markup as text', async () => {
    for (const [tool, args] of [
      ['get_fact', { id: HOSTILE_ID }],
      ['fetch', { id: HOSTILE_ID }],
    ] as const) {
      const { page, frame } = await show(tool, args)
      const title = await frame.locator('main h1').innerText()
      expect(title, tool).toBe(hostile.title)
      await page.waitForTimeout(200) // an injected handler would have fired by now (img error, svg load)
      expect(await page.evaluate('window.pwned'), tool).toBe(0)
      const injected = (await frame.evaluate(`({
        scripts: document.querySelectorAll('script').length,
        handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length,
        links: [...document.querySelectorAll('a')].map((a) => a.getAttribute('href')),
      })`)) as { scripts: number; handlers: number; links: string[] }
      expect(injected.scripts, tool).toBe(1)
      expect(injected.handlers, tool).toBe(0)
      expect(injected.links, tool).toContain('https://www.legifrance.gouv.fr/x')
      for (const href of injected.links) expect(href, tool).toMatch(/^https:\/\//)
      await page.close()
    }
  })
})
