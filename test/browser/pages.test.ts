/**
 * The pages for people in a real browser (Debian's Chromium, driven by playwright-core): the home
 * page, a search with a filter and paging, a record page, the guide's links and copy buttons, the
 * reference's "Try it out", and a refusal by the quota. Every page is checked at 390 and 1280 px
 * wide, with axe-core (no serious or critical violation), for Content-Security-Policy violations and
 * for requests to any other host. Every page is screenshotted; the screenshots replace those in
 * docs/screenshots/ (shown in the README) when UPDATE_SCREENSHOTS=1, and go to a temporary folder
 * otherwise, so that a test run leaves the checkout as it was.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/test-server.js'

const CHROMIUM = '/usr/bin/chromium'
const available = existsSync(CHROMIUM)
if (!available) {
  if (process.env.CI) throw new Error(`${CHROMIUM} is missing: CI installs Debian's chromium (see .ci/run)`)
  console.warn(
    `SKIPPED: page tests in Chromium (no ${CHROMIUM}; apt-get install -y chromium, or set CI=1 to make this a failure)`,
  )
}
/** Headless, and quiet: no update checks, sync or other traffic of the browser's own. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-default-apps',
  '--disable-sync',
  '--no-first-run',
  '--metrics-recording-only',
  '--disable-features=Translate,OptimizationHints,MediaRouter',
]
const BUNDLED = new URL('../../data/records.json', import.meta.url).pathname
const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? new URL('../../docs/screenshots/', import.meta.url).pathname
    : `${mkdtempSync(join(tmpdir(), 'screenshots-'))}/`
const AXE = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8')
const WIDTHS = [1280, 390] as const

let server: TestServer
let browser: Browser

beforeAll(async () => {
  if (!available) return
  mkdirSync(SHOTS, { recursive: true })
  // A realistic quota for the screenshots, with room for the link checks below.
  server = await startTestServer({ RECORDS_FILE: BUNDLED, RATE_LIMIT_PER_MINUTE: '600' })
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS })
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

/** A page in a fresh context that records CSP violations and requests leaving the service's origin. */
async function open(base: string, width: number, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({
    viewport: { width, height: width < 500 ? 844 : 900 },
    ...options,
  })
  const page = await context.newPage()
  const problems: string[] = []
  const origin = new URL(base).origin
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text()))
      problems.push(`CSP: ${m.text()}`)
  })
  page.on('request', (r) => {
    const url = new URL(r.url())
    if (url.origin !== origin && url.protocol !== 'data:')
      problems.push(`request to another host: ${r.url()}`)
  })
  return { page, problems, close: () => context.close() }
}

/** axe-core's serious and critical violations on the page as it is now. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE)
  const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as {
    violations: { id: string; impact: string; nodes: { target: string[] }[] }[]
  }
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

/** The checks every page gets at each width: nothing wider than the screen, axe, and a screenshot. */
async function checkPage(page: Page, name: string, width: number): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow, `${name} at ${width} px is wider than the screen`).toBeLessThanOrEqual(0)
  expect(await axeViolations(page), `${name} at ${width} px`).toEqual([])
  await page.screenshot({ path: `${SHOTS}${name}-${width}.png`, animations: 'disabled' })
}

describe.runIf(available)('pages in Chromium', { timeout: 60_000 }, () => {
  it.each(WIDTHS)(
    'home page at %i px: what the service is, counts per kind, the way onward',
    async (width) => {
      const { page, problems, close } = await open(server.url, width)
      await page.goto(`${server.url}/`)
      await expect
        .poll(() => page.textContent('h1'))
        .toBe('Fiches de référence sur la conduite et le code de la route')
      expect(await page.textContent('table.counts tfoot td')).toBe('264')
      expect(await page.getAttribute('a:text("Document OpenAPI 3.1")', 'href')).toBe(
        '/api/v1/openapi.json?po_live=1',
      )
      // The MCP configuration names this origin, filled in by the page's script.
      expect(await page.textContent('code[data-origin]')).toContain(`"url": "${server.url}/mcp"`)
      // The screenshot shows the usual local address rather than this run's random port.
      await page.$eval(
        'code[data-origin]',
        (el, origin) => (el.textContent = el.textContent!.replace(origin, 'http://localhost:8080')),
        server.url,
      )
      await checkPage(page, 'home', width)
      expect(problems).toEqual([])
      await close()
    },
  )

  it.each(WIDTHS)('search at %i px: a query, a kind filter, paging, then a record page', async (width) => {
    const { page, problems, close } = await open(server.url, width)
    await page.goto(`${server.url}/`)
    await page.fill('#q', 'vitesse')
    await page.click('button:text("Rechercher")')
    await page.waitForURL(`${server.url}/recherche?q=vitesse`) // empty fields left out of the address
    await page.selectOption('#kind', 'lesson')
    await page.click('button:text("Rechercher")')
    await page.waitForURL(`${server.url}/recherche?q=vitesse&kind=lesson`)
    expect(await page.textContent('h2.summary')).toBe('41 fiches pour « vitesse » (Leçons) — page 1 sur 5')
    const labels = await page.$$eval('.result .label', (els) => els.map((e) => e.textContent))
    expect(labels).toEqual(Array(10).fill('Leçon— explication, pas une règle officielle'))
    expect(await page.$$eval('.result mark', (els) => els.length)).toBeGreaterThan(10)
    await page.click('a[rel="next"]')
    await page.waitForURL(`${server.url}/recherche?q=vitesse&kind=lesson&page=2`)
    expect(await page.getAttribute('ol.results', 'start')).toBe('11')
    expect(await page.textContent('.pager [aria-current="page"]')).toBe('2')
    await checkPage(page, 'search', width)

    // An official rule's page: its text, official sources, verification and how to cite it.
    await page.goto(`${server.url}/recherche?q=alcool%C3%A9mie&kind=fact`)
    const title = (await page.textContent('.result h3 a'))!
    await page.click('.result h3 a')
    await page.waitForURL(/\/fiches\/fait-[0-9a-f]{16}$/)
    expect(await page.textContent('h1')).toBe(title)
    expect(await page.textContent('.label')).toBe('Règle officielle')
    expect(await page.textContent('.panel-official')).toMatch(
      /Sources officielles :[\s\S]*Vérifiée sur le texte officiel le \d+(er)? \S+ \d{4}/,
    )
    // The line to copy holds the record's title as written; the heading keeps French spacing with no-break spaces.
    expect(await page.textContent('#citer + p code')).toBe(
      `Source : ${title.replace(/\u00a0/g, ' ')} — ${await page.getAttribute('#citer ~ p.small a', 'href')}`,
    )
    await checkPage(page, 'record', width)
    expect(problems).toEqual([])
    await close()
  })

  // Typos, questions and words with other forms: the explanation of how they were read stays short
  // enough that a phone's first screen still shows the first result's title.
  it.each([
    'quelle est la vitese maximal sur autorute pour un jeune conducter',
    'est-ce que je peux stationer sur le trotoir devant chez moi',
    'combien de point perd on pour un exces de vites en agglomeration',
  ])('at 390 px, the first result of %j is on the first screen', async (q) => {
    const { page, close } = await open(server.url, 390)
    await page.goto(`${server.url}/recherche?q=${encodeURIComponent(q)}`)
    const box = await page.locator('.result h3').first().boundingBox()
    expect(box, 'a first result').not.toBeNull()
    expect(box!.y + box!.height, 'the first title ends within 844 px').toBeLessThanOrEqual(844)
    await close()
  })

  it('search works without JavaScript', async () => {
    const { page, close } = await open(server.url, 1280, { javaScriptEnabled: false })
    await page.goto(`${server.url}/recherche`)
    await page.fill('#q', 'priorité à droite')
    await page.press('#q', 'Enter')
    await page.waitForURL(/\/recherche\?q=priorit/)
    expect(await page.$$eval('.result', (els) => els.length)).toBeGreaterThan(0)
    expect(await page.textContent('.result mark')).toMatch(/priorit/i)
    await close()
  })

  it.each(WIDTHS)('guide at %i px: table of contents, working links, copyable code', async (width) => {
    const { page, problems, close } = await open(server.url, width)
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
    await page.goto(`${server.url}/docs`)
    // Every link inside the site, from each guide, answers and lands on an existing anchor.
    for (const path of ['/docs', '/docs/search', '/docs/operations']) {
      await page.goto(`${server.url}${path}`)
      const links = await page.$$eval('a[href]', (as) => as.map((a) => (a as HTMLAnchorElement).href))
      for (const link of links.filter((l) => l.startsWith(server.url))) {
        const url = new URL(link)
        const res = await page.request.get(link, { maxRedirects: 0 })
        expect(res.status(), `${path} → ${link}`).toBe(200)
        if (url.hash !== '')
          expect(await res.text(), `${path} → ${link}`).toContain(
            `id="${decodeURIComponent(url.hash.slice(1))}"`,
          )
      }
    }
    await page.goto(`${server.url}/docs`)
    await page.click('.toc a:text("Errors")')
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#errors')
    await page.click('a[href="/docs/search"]')
    await page.waitForURL(`${server.url}/docs/search`)
    expect(await page.textContent('h1')).toBe('Search: how a query is read, and how well it answers')
    await page.goto(`${server.url}/docs`)
    await checkPage(page, 'guide', width)
    const code = (await page.textContent('pre code'))!
    await page.click('pre button.copy')
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code)
    await expect.poll(() => page.textContent('pre button.copy')).toBe('Copié le code')
    expect(problems).toEqual([])
    await close()
  })

  it.each(WIDTHS)(
    'reference at %i px: Swagger UI from this origin, and "Try it out" against it',
    async (width) => {
      const { page, problems, close } = await open(server.url, width)
      await page.goto(`${server.url}/reference`)
      await page.click('#operations-records-searchFacts .opblock-summary-control')
      await page.fill('tr[data-param-name="q"] input', 'alcoolémie')
      await page.selectOption('tr[data-param-name="kind"] select', 'fact')
      // The examples of the document are there to pick from.
      expect(await page.textContent('#operations-records-searchFacts')).toContain(
        'Fait-643b555e754f953d'.toLowerCase(),
      )
      await checkPage(page, 'reference', width)
      const answer = page.waitForResponse((r) => r.url().includes('/api/v1/facts?') && r.status() === 200)
      await page.click('#operations-records-searchFacts button.execute')
      // Sent as a live read, so the curl command shown works when pasted into a terminal.
      expect(new URL((await answer).url()).search).toMatch(/^\?q=alcool%C3%A9mie&kind=fact&.*po_live=1$/)
      await expect
        .poll(() => page.textContent('#operations-records-searchFacts .curl-command'))
        .toMatch(
          /curl -X 'GET' \\\s+'http:\/\/[^']+\/api\/v1\/facts\?q=alcool%C3%A9mie&kind=fact&[^']*po_live=1'/,
        )
      await expect
        .poll(() =>
          page.textContent(
            '#operations-records-searchFacts .live-responses-table tr.response .response-col_status',
          ),
        )
        .toBe('200')
      expect(
        await page.textContent(
          '#operations-records-searchFacts .live-responses-table tr.response .response-col_description',
        ),
      ).toContain('"total": 3')
      expect(await axeViolations(page)).toEqual([])
      expect(problems).toEqual([])
      await close()
    },
  )

  it('a refused page says in words when to come back', async () => {
    const strict = await startTestServer({ RECORDS_FILE: BUNDLED, RATE_LIMIT_PER_MINUTE: '3' })
    try {
      const { page, problems, close } = await open(strict.url, 1280)
      let status = 0
      for (let i = 0; i < 5 && status !== 429; i++)
        status = (await page.goto(`${strict.url}/recherche?q=vitesse`))!.status()
      expect(status).toBe(429)
      const text = (await page.textContent('main'))!
      expect(text).toMatch(
        /Revenez dans (\d+ secondes?|1 minute) : cette page s’affichera de nouveau normalement\./,
      )
      expect(await page.getAttribute('a:text("Réessayer")', 'href')).toBe('/recherche?q=vitesse')
      // The wait depends on this run's timing; the screenshot shows a fixed one, so it does not change with every run.
      await page.$eval('.lead strong', (el) => (el.textContent = '42 secondes'))
      await checkPage(page, 'quota', 1280)
      expect(problems).toEqual([])
      await close()
    } finally {
      await strict.close()
    }
  })

  it('keeps the search page light: bytes transferred per page, assets included', async () => {
    const weights: Record<string, number> = {}
    for (const path of ['/', '/recherche?q=vitesse', '/fiches/fait-643b555e754f953d', '/reference']) {
      const { page, close } = await open(server.url, 1280)
      const responses: Promise<number>[] = []
      page.on('requestfinished', (r) =>
        responses.push(r.sizes().then((s) => s.responseBodySize + s.responseHeadersSize)),
      )
      await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' })
      weights[path] = (await Promise.all(responses)).reduce((a, b) => a + b, 0)
      await close()
    }
    console.log(`page weights (bytes transferred, fresh cache): ${JSON.stringify(weights)}`)
    expect(weights['/recherche?q=vitesse']).toBeLessThan(100_000)
    expect(weights['/']).toBeLessThan(100_000)
    expect(weights['/fiches/fait-643b555e754f953d']).toBeLessThan(100_000)
  })
})
