/**
 * The docs stay true to the code (every setting is in the configuration table, with its flag) and to the
 * repository (every citation and relative link lands on one of its files).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import GithubSlugger from 'github-slugger'
import { describe, expect, it } from 'vitest'
import { SETTING_NAMES, flagName } from '../../src/config.js'
import { GUIDES, renderGuide } from '../../src/http/pages/guide.js'

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
const configuration = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8')

it('lists every setting in the configuration table (docs/configuration.md), with its flag', () => {
  for (const name of SETTING_NAMES) {
    expect(configuration, name).toMatch(new RegExp(`^\\| \`${name}\` +\\| \`--${flagName(name)}\` +\\|`, 'm'))
  }
  const rows = configuration.match(/^\| `[A-Z_]+` +\| `--/gm) ?? []
  expect(rows).toHaveLength(SETTING_NAMES.length) // and nothing the code does not read
})

it('shows the two set-up commands on the first screen of a README of at most 200 lines', () => {
  const firstScreen = readme.split('\n').slice(0, 30).join('\n')
  expect(firstScreen).toContain('npm ci && npm start')
  expect(firstScreen).toContain('npm ci && npm test')
  expect(readme.split('\n').length).toBeLessThanOrEqual(200)
})

it('indexes every document of docs/ in docs/README.md', () => {
  const index = readFileSync(new URL('../../docs/README.md', import.meta.url), 'utf8')
  const docs = readdirSync(new URL('../../docs/', import.meta.url)).filter(
    (f) => /\.(md|json)$/.test(f) && f !== 'README.md',
  )
  for (const file of docs) expect(index, file).toContain(`](${file})`)
})

/**
 * The map of the search engine (issue 46) stays a map of the code: it names every module of
 * src/core/search, and every constant it quotes as `NAME = value` is declared so in one of them, so a
 * threshold changed in the code (text-index.ts's policy for postings, best match's weights) fails
 * here until the page says the new value.
 */
describe('docs/search-internals.md', () => {
  const internals = readFileSync(new URL('../../docs/search-internals.md', import.meta.url), 'utf8')
  const folder = new URL('../../src/core/search/', import.meta.url)
  const modules = readdirSync(folder).filter((f) => f.endsWith('.ts') && !/\.test\.ts$/.test(f))
  const sources = modules.map((f) => readFileSync(new URL(f, folder), 'utf8'))

  it('names every module of src/core/search', () => {
    expect(modules.length).toBeGreaterThan(30)
    expect(modules.filter((f) => !internals.includes(`\`${f}\``))).toEqual([])
  })

  it('quotes each constant as the code declares it', () => {
    const quoted = [...internals.matchAll(/`([A-Z][A-Z0-9_]+) = ([^`]+)`/g)].map(
      (m) => [m[1]!, m[2]!] as const,
    )
    expect(quoted.length).toBeGreaterThan(25)
    const wrong = quoted.filter(([name, value]) => {
      const declared = new RegExp(`\\bconst ${name}(?:: [\\w<>]+)? = (.+?)\\s*(?://.*)?$`, 'm')
      return !sources.some((source) => source.match(declared)?.[1] === value)
    })
    expect(wrong).toEqual([])
  })
})

const apiGuide = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8')

it('shows how to send accents (curl -G --data-urlencode) and how to follow the 307 (curl -L)', () => {
  for (const [name, text] of [
    ['README.md', readme],
    ['docs/api.md', apiGuide],
  ] as const) {
    expect(text, name).toMatch(/curl -s?G --data-urlencode 'q=priorité/)
    expect(text, name).toMatch(/curl -s?L '/)
    expect(text, name).toMatch(/raw UTF-8/i)
  }
})

it('says what the MCP server lists and what a session costs, as the code does', async () => {
  const { RESOURCE_PAGE_SIZE } = await import('../../src/mcp/server.js')
  expect(apiGuide).toContain(`each page lists ${RESOURCE_PAGE_SIZE} records`)
  expect(apiGuide).not.toMatch(/up to 1 000/)
  expect(apiGuide).not.toMatch(/Every HTTP request to `\/mcp` counts/)
  expect(apiGuide).toMatch(/"id":7,"error"/)
})

/**
 * The project stands alone (issue 31): what its files cite is in the repository. The API
 * specification and the decisions taken where it says "not shown" are docs/spec.md and
 * docs/contract.md; nothing may send a reader to a file outside the repository.
 */
describe('citations', () => {
  const ROOT = resolve(fileURLToPath(new URL('../../', import.meta.url)))
  const within = (path: string) => path === ROOT || path.startsWith(ROOT + sep)
  const SCANNED = ['README.md', 'CHANGELOG.md', 'docs', 'src', 'test', 'scripts', 'bench']
  // Generated or installed, never committed (bench/corpus), or binary (docs/screenshots).
  const SKIPPED = new Set(['node_modules', 'dist', 'corpus', 'screenshots'])
  const TEXT = /\.(?:ts|js|cjs|mjs|md|json|lua|txt)$/
  const files: string[] = []
  const walk = (path: string): void => {
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path)) if (!SKIPPED.has(entry)) walk(join(path, entry))
    } else if (TEXT.test(path) && path !== fileURLToPath(import.meta.url)) files.push(path)
  }
  for (const path of SCANNED) walk(join(ROOT, path))
  const text = new Map(files.map((file) => [relative(ROOT, file), readFileSync(file, 'utf8')]))
  const inRepository = (path: string) => within(path) && existsSync(path)
  const markdown = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ]
  /** GitHub's anchors of a Markdown file's headings (fenced code left out, where `#` starts comments). */
  const anchors = (path: string) => {
    const slugger = new GithubSlugger()
    const headings = readFileSync(path, 'utf8')
      .replace(/^```[^]*?^```/gm, '')
      .matchAll(/^#{1,6} (.+)$/gm)
    return new Set([...headings].map((m) => slugger.slug(m[1]!.trim())))
  }

  it('scans the docs, the sources, the tests, the scripts and the benchmarks', () => {
    for (const file of [
      'README.md',
      'docs/api.md',
      'src/config.ts',
      'test/e2e/package.test.ts',
      'scripts/mark-bin-executable.js',
      'bench/run.ts',
    ]) {
      expect([...text.keys()], file).toContain(file)
    }
  })

  it('cites no file outside the repository: no CONTRACT.md, STYLE.md or ../shared, no relative path above the root', () => {
    const outside: string[] = []
    for (const [file, content] of text) {
      for (const m of content.matchAll(
        /CONTRACT\.md|STYLE\.md|\.\.\/shared\b|\bshared\/(?:spec|CONTRACT|STYLE)|reference-records-api\.md/g,
      )) {
        outside.push(`${file}: ${m[0]}`)
      }
      // A relative path (`../x`, not part of a URL path such as `/api/v1/../x`) read from the file's folder.
      for (const m of content.matchAll(/(?<![\w/.])((?:\.\.\/)+)([\w.-]*)/g)) {
        if (!within(resolve(ROOT, dirname(file), m[0]))) outside.push(`${file}: ${m[0]}`)
      }
    }
    expect(outside).toEqual([])
  })

  it('resolves every relative link of README.md and docs/*.md to a file of the repository, and its anchor to a heading', () => {
    const broken: string[] = []
    let checked = 0
    for (const file of markdown) {
      const content = text.get(file)!.replace(/^```[^]*?^```/gm, '')
      for (const [, href] of content.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        if (/^[a-z][a-z+.-]*:/i.test(href!)) continue // another site, or mailto:
        const [path = '', fragment] = href!.split('#')
        const target = path === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), decodeURIComponent(path))
        checked++
        if (!inRepository(target)) broken.push(`${file}: ${href} (no such file in the repository)`)
        else if (fragment !== undefined && target.endsWith('.md') && !anchors(target).has(fragment))
          broken.push(`${file}: ${href} (no such heading)`)
      }
    }
    expect(broken).toEqual([])
    expect(checked).toBeGreaterThan(50)
  })

  it('names only files of the repository: every src/…, test/…, bench/… path the docs cite exists', () => {
    // A doc that names a file says where to read the code; a renamed file left its old name behind
    // (issue 45: `test/types/wire.test-d.ts`, `src/mcp/http.ts`). Folders a run writes, never
    // committed, are named before they exist.
    const GENERATED = /^(?:bench\/corpus|bench\/results\/profiles|dist|packages\/client\/dist)(?:\/|$)/
    const FOLDERS = 'src|test|bench|scripts|packages|data|deploy|public|docs'
    const cited = new RegExp(`(?<![\\w./:-])((?:${FOLDERS})/[\\w./@-]*[\\w])(?![\\w*{])`, 'g')
    const missing: string[] = []
    let checked = 0
    for (const file of ['CONTRIBUTING.md', 'packages/client/README.md', ...markdown]) {
      const content = readFileSync(join(ROOT, file), 'utf8')
      for (const [, path] of content.matchAll(cited)) {
        if (GENERATED.test(path!)) continue
        checked++
        if (!existsSync(join(ROOT, path!))) missing.push(`${file}: ${path}`)
      }
    }
    expect(missing).toEqual([])
    expect(checked).toBeGreaterThan(100)
  })

  it('sends no npm script output into a file or a pipe without -s, which keeps npm’s banner out of it', () => {
    // `npm run word-forms > docs/search-forms.md` wrote "> reference-records@0.1.0 word-forms" and the
    // script's command line at the top of the file (issue 31, item 9). A `#` comment or a table cell ends the command.
    const unsilenced: string[] = []
    for (const [file, content] of text) {
      for (const m of content.matchAll(/\bnpm run (?!-s\b|--silent\b)[\w:-]+(?: [^`\n|>#]*)?(?:>(?!&)|\| )/g))
        unsilenced.push(`${file}: ${m[0]}`)
    }
    expect(unsilenced).toEqual([])
    expect(text.get('docs/search.md')).toContain('`npm run -s word-forms > docs/search-forms.md`')
  })

  it('links the specification and the decisions from the README and the API guide', () => {
    expect(text.get('README.md')).toContain('](docs/spec.md)')
    expect(text.get('README.md')).toContain('](docs/contract.md)')
    expect(text.get('docs/api.md')).toMatch(/\]\(spec\.md[)#]/)
    expect(text.get('docs/api.md')).toMatch(/\]\(contract\.md[)#]/)
  })

  it('resolves every section the sources cite: docs/contract.md "Section" and docs/spec.md §N', () => {
    const contract = [...text.get('docs/contract.md')!.matchAll(/^## (.+)$/gm)].map((m) => m[1]!)
    const spec = new Set(
      [...text.get('docs/spec.md')!.matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)].map((m) => m[1]!),
    )
    const missing: string[] = []
    let cited = 0
    for (const [file, content] of text) {
      for (const [, section] of content.matchAll(/docs\/contract\.md "([^"]+)"/g)) {
        cited++
        if (!contract.some((heading) => heading.startsWith(section!)))
          missing.push(`${file}: contract "${section}"`)
      }
      for (const [, sections] of content.matchAll(/docs\/spec\.md ((?:§[\d.]+(?:, )?)+)/g)) {
        for (const [, n] of sections!.matchAll(/§(\d+(?:\.\d+)?)/g)) {
          cited++
          if (!spec.has(n!)) missing.push(`${file}: spec §${n}`)
        }
      }
    }
    expect(missing).toEqual([])
    expect(cited).toBeGreaterThan(30)
  })

  it('serves both as guides, so the served guides that cite them link to pages that exist', () => {
    const served = new Map(GUIDES.map((g) => [g.file, renderGuide(g, '')]))
    expect(served.get('spec.md')!.source.path).toBe('/docs/spec')
    expect(served.get('contract.md')!.source.path).toBe('/docs/contract')
    expect(served.get('search.md')!.html).toContain('href="/docs/contract#search-semantics"')
    expect(served.get('api.md')!.html).toContain('href="/docs/spec#7-errors"')
  })
})
