import { describe, expect, it } from 'vitest'
import { catalogueLinks } from '../../core/api/catalogue.js'
import { CatalogueSchema, type Catalogue } from '../../core/api/schemas.js'
import { CATALOGUE_EXAMPLE } from '../openapi-examples.js'
import { buildLlmsTxt, type LlmsTxtInput } from './llms-txt.js'

const BASE = 'https://records.example.org'
const catalogue = (base = '', requestsPerMinute = 120): Catalogue =>
  CatalogueSchema.parse({
    ...CATALOGUE_EXAMPLE,
    links: catalogueLinks({
      publicBaseUrl: base === '' ? undefined : base,
      requestsPerMinute,
      contact: CATALOGUE_EXAMPLE.reuse.contact,
      mcpPath: '/mcp',
    }),
    limits: { ...CATALOGUE_EXAMPLE.limits, requests_per_minute: requestsPerMinute },
  })
const TOOLS = [
  {
    name: 'search_facts',
    title: 'Search records',
    description: 'Search every kind of record.\nThe records are in French: send q in French.',
  },
  { name: 'get_fact', description: 'Read one record by id. Use search_facts first.' },
  { name: 'fetch' },
]
const input = (overrides: Partial<LlmsTxtInput> = {}): LlmsTxtInput => ({
  catalogue: catalogue(),
  base: '',
  publishers: [{ id: 'brand-16395a25a8264e91', title: 'Code & Conduite' }],
  mcp: { protocolVersions: ['2026-07-28', '2025-11-25'], tools: TOOLS },
  ...overrides,
})
/** The H2 sections, by heading, each as its lines. */
const sections = (text: string): Record<string, string[]> =>
  Object.fromEntries(
    text
      .split(/^## /m)
      .slice(1)
      .map((s) => [
        s.split('\n', 1)[0]!,
        s
          .split('\n')
          .slice(1)
          .filter((l) => l !== ''),
      ]),
  )

describe('buildLlmsTxt', () => {
  it('has the llms.txt shape: a title, a one-line summary, paragraphs, then sections of links', () => {
    const text = buildLlmsTxt(input())
    expect(text).toMatch(
      /^# Reference-Records\n\n> [^\n]+official road rules with their legal sources and verification dates[^\n]+\n\n(?!#)/,
    )
    expect(Object.keys(sections(text))).toEqual(['API', 'MCP', 'Reuse', 'Optional'])
    for (const [heading, lines] of Object.entries(sections(text))) {
      for (const line of lines) expect(line, heading).toMatch(/^- \[[^\]]+\]\([^)\s]+\)(: .+)?$/)
    }
    expect(text.endsWith('\n')).toBe(true)
  })

  it('counts the records per kind, as the catalogue does', () => {
    const text = buildLlmsTxt(input())
    expect(text).toContain('Records in the served snapshot (published 2026-11-20T09:00:00.000Z), 264 in all:')
    expect(text).toContain('- `fact` Official rule: 80')
    expect(text).toContain('- `lesson` Lesson (explanation, not an official rule): 96')
    expect(text).toContain('- `organization` Organization: 1')
  })

  it('says how to use the records well: rules apart from explanations, search first, cite the page', () => {
    const text = buildLlmsTxt(input())
    expect(text).toMatch(/Official rules \(kind `fact`[^)]*\) are distinct from explanations/)
    expect(text).toContain('Search before concluding that a rule is absent')
    expect(text).toContain("Cite the record page (each record's `url`)")
    expect(text).toContain('Published by [Code & Conduite](/fiches/brand-16395a25a8264e91).')
  })

  it('links the API entry points, search with match=best, all live reads', () => {
    const api = sections(buildLlmsTxt(input())).API!
    expect(api).toEqual([
      expect.stringMatching(/^- \[Catalogue\]\(\/api\/v1\/\?po_live=1\): /),
      expect.stringMatching(
        /^- \[Search\]\(\/api\/v1\/facts\?q=priorit%C3%A9%20%C3%A0%20droite&match=best&po_live=1\): `GET \/api\/v1\/facts\?q=…&match=best&po_live=1`/,
      ),
      expect.stringMatching(/^- \[One record\]\(\/api\/v1\/facts\/\{id\}\?po_live=1\): /),
      expect.stringMatching(/^- \[OpenAPI document\]\(\/api\/v1\/openapi\.json\?po_live=1\): /),
      expect.stringMatching(/^- \[Download\]\(\/api\/v1\/facts\.ndjson\): /),
      expect.stringMatching(/^- \[API guide\]\(\/docs\.md\): /),
    ])
  })

  it('lists the MCP endpoint, its revisions and each tool by its first sentence', () => {
    const mcp = sections(buildLlmsTxt(input())).MCP!
    expect(mcp[0]).toMatch(
      /^- \[MCP endpoint\]\(\/mcp\): Streamable HTTP, .*protocol revisions 2026-07-28, 2025-11-25;/,
    )
    expect(mcp.slice(1, 4)).toEqual([
      '- [search_facts](/docs#mcp-tool-protocol-server): Search records — Search every kind of record.',
      '- [get_fact](/docs#mcp-tool-protocol-server): Read one record by id.',
      '- [fetch](/docs#mcp-tool-protocol-server)',
    ])
    expect(mcp.slice(4)).toEqual([
      expect.stringMatching(/^- \[Server card\]\(\/\.well-known\/mcp\/server-card\.json\): /),
      expect.stringMatching(/^- \[server\.json\]\(\/server\.json\): /),
    ])
  })

  it('has no MCP section when no MCP endpoint is served', () => {
    expect(Object.keys(sections(buildLlmsTxt(input({ mcp: undefined }))))).toEqual([
      'API',
      'Reuse',
      'Optional',
    ])
  })

  it('states the quota and the reuse conditions from the catalogue', () => {
    const text = buildLlmsTxt(input())
    expect(text).toContain('At most 120 requests per minute per client')
    expect(buildLlmsTxt(input({ catalogue: catalogue('', 0) }))).toContain(
      'no request quota on this instance',
    )
    const reuse = sections(text).Reuse!.join('\n')
    expect(reuse).toContain(CATALOGUE_EXAMPLE.reuse.summary)
    expect(reuse).toContain('Attribution: `Source : <record title> — <record url>`')
    expect(reuse).toContain(CATALOGUE_EXAMPLE.reuse.contact)
    expect(reuse).toContain('[DCAT description](/catalog.jsonld)')
    expect(reuse).not.toContain('Sitemap')
    expect(sections(buildLlmsTxt(input({ catalogue: catalogue(BASE), base: BASE }))).Reuse).toContain(
      `- [Sitemap](${BASE}/sitemap.xml): every record page with when it last changed`,
    )
  })

  it('makes every link absolute on a base URL', () => {
    const text = buildLlmsTxt(input({ catalogue: catalogue(BASE), base: BASE }))
    const targets = [...text.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!)
    expect(targets.length).toBeGreaterThan(15)
    for (const target of targets) expect(target.startsWith(`${BASE}/`), target).toBe(true)
  })

  it('escapes brackets in the titles it links', () => {
    expect(
      buildLlmsTxt(input({ publishers: [{ id: 'brand-0000000000000000', title: 'École [Nord]' }] })),
    ).toContain('[École \\[Nord\\]](/fiches/brand-0000000000000000)')
  })
})
