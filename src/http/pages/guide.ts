/**
 * The guides for people: docs/api.md at /docs, and the guides it leads to (docs/search.md, docs/mcp.md
 * for AI assistants, docs/operations.md for operators, and the specification and the project's
 * decisions it cites, docs/spec.md and docs/contract.md) under /docs/. Rendered once at start with markdown-it (headings get
 * GitHub's anchors, so links written for the repository work here too), with a table of contents,
 * links between the guides rewritten to their served addresses, and code blocks the site's script
 * gives a copy button. The Markdown stays available at the same address + ".md", or with
 * `Accept: text/markdown`.
 */
import { readFileSync } from 'node:fs'
import GithubSlugger from 'github-slugger'
import MarkdownIt, { type MarkdownIt as Markdown } from 'markdown-it'
import { html, trusted, type Html } from './html.js'
import { renderPage, type Site } from './layout.js'

const DOCS_DIR = new URL('../../../docs/', import.meta.url)

/** A served guide: where it comes from and where it is served. */
export type GuideSource = { file: string; path: string; summary: string }

/** The guides, by source file; links between them (`search.md#x`) become links to their addresses. */
export const GUIDES: readonly GuideSource[] = [
  { file: 'api.md', path: '/docs', summary: 'Use the API: addresses, parameters, errors, quota, MCP.' },
  { file: 'search.md', path: '/docs/search', summary: 'How search matches and ranks records.' },
  {
    file: 'search-forms.md',
    path: '/docs/search-forms',
    summary: 'Every group of the sample’s words the search treats as one word: accents, plurals, forms.',
  },
  {
    file: 'mcp.md',
    path: '/docs/mcp',
    summary: 'Connect an AI assistant: the MCP tools, resources and prompts, and client configurations.',
  },
  {
    file: 'operations.md',
    path: '/docs/operations',
    summary: 'Run the service: health checks, logs, metrics, reloads, shutdown.',
  },
  {
    file: 'spec.md',
    path: '/docs/spec',
    summary: 'The API specification the service implements, as written.',
  },
  {
    file: 'contract.md',
    path: '/docs/contract',
    summary: 'What the project decided where the specification says “not shown”, and its extensions.',
  },
]

type TocEntry = { level: number; slug: string; title: string }
export type RenderedGuide = {
  source: GuideSource
  title: string
  html: string
  markdown: string
  toc: TocEntry[]
}

/** A relative link to another guide (`search.md`, `search.md#x`), or undefined for any other link. */
function guideLink(href: string, base: string, suffix: '' | '.md'): string | undefined {
  const match = /^(?:\.\/)?([\w-]+\.md)(#.*)?$/.exec(href)
  const guide = match === null ? undefined : GUIDES.find((g) => g.file === match[1])
  return guide === undefined ? undefined : `${base}${guide.path}${suffix}${match![2] ?? ''}`
}

/** A link relative to the docs folder (`scale.md`, `../bench/x.md`), not an anchor, an absolute path or another site. */
const isUnservedRelative = (href: string) => href !== '' && !/^(?:[a-z][a-z0-9+.-]*:|#|\/)/i.test(href)

/**
 * Headings of levels 2 and 3 get GitHub's id, `tabindex="-1"` (following a link to one moves the
 * focus there), and their text wrapped in a link to themselves (the span keeps Safari's reader view
 * showing the heading), and go into the table of contents. A core rule of its own rather than
 * markdown-it-anchor, which did the same: that plugin's peer dependency `@types/markdown-it` landed
 * in every user's node_modules/@types, which TypeScript includes by default, and its errors failed
 * a `skipLibCheck: false` build (issue 31, item 4); markdown-it 15 ships its own types.
 */
function anchorHeadings(md: Markdown, toc: TocEntry[]): void {
  const slugger = new GithubSlugger()
  md.core.ruler.push('heading_anchors', (state) => {
    const tokens = state.tokens
    for (let i = 0; i < tokens.length; i++) {
      const open = tokens[i]!
      const level = Number(open.tag.slice(1))
      const inline = tokens[i + 1]
      if (open.type !== 'heading_open' || (level !== 2 && level !== 3) || inline === undefined) continue
      const children = inline.children ?? []
      const title = children
        .filter((token) => token.type === 'text' || token.type === 'code_inline')
        .map((token) => token.content)
        .join('')
      const slug = slugger.slug(title)
      open.attrSet('id', slug)
      open.attrSet('tabindex', '-1')
      const link = new state.Token('link_open', 'a', 1)
      link.attrs = [
        ['class', 'header-anchor'],
        ['href', `#${slug}`],
      ]
      inline.children = [
        link,
        new state.Token('span_open', 'span', 1),
        ...children,
        new state.Token('span_close', 'span', -1),
        new state.Token('link_close', 'a', -1),
      ]
      toc.push({ level, slug, title })
    }
  })
}

function markdownRenderer(base: string, toc: TocEntry[]): Markdown {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false })
  anchorHeadings(md, toc)
  const rules = md.renderer.rules
  const defaultLink =
    rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options))
  const defaultLinkClose =
    rules.link_close ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options))
  // A relative link to a file that is not served (another doc, a file of the repository) would be a
  // broken link on the site: its text stays, without the link. Links nest never, so one flag does.
  let dropped = false
  rules.link_open = (tokens, i, options, env, self) => {
    const token = tokens[i]!
    const href = String(token.attrGet('href') ?? '')
    const served = guideLink(href, base, '')
    if (served !== undefined) token.attrSet('href', served)
    else if (isUnservedRelative(href)) return ((dropped = true), '')
    return defaultLink(tokens, i, options, env, self)
  }
  rules.link_close = (tokens, i, options, env, self) =>
    dropped ? ((dropped = false), '') : defaultLinkClose(tokens, i, options, env, self)
  // Wide code and tables scroll sideways on a phone; a scrolling region must be reachable by keyboard.
  const defaultFence = rules.fence!
  rules.fence = (...args) => defaultFence(...args).replace(/^<pre>/, '<pre tabindex="0">')
  rules.table_open = () => '<div class="table-scroll" tabindex="0">\n<table>\n'
  rules.table_close = () => '</table>\n</div>\n'
  // Column alignment (`|---:|`) comes as an inline style, which the pages' CSP forbids: a class instead.
  for (const cell of ['th_open', 'td_open'] as const) {
    rules[cell] = (tokens, i, options, _env, self) => {
      const token = tokens[i]!
      const align = /text-align:(left|center|right)/.exec(String(token.attrGet('style') ?? ''))?.[1]
      if (align !== undefined) {
        token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style')
        token.attrJoin('class', `align-${align}`)
      }
      return self.renderToken(tokens, i, options)
    }
  }
  return md
}

/** The Markdown as served: links to other guides point at their served Markdown. */
function servedMarkdown(markdown: string, base: string): string {
  return markdown.replace(/\]\(([^)\s]+)\)/g, (whole, href: string) => {
    const served = guideLink(href, base, '.md')
    return served === undefined ? whole : `](${served})`
  })
}

export function renderGuide(
  source: GuideSource,
  base: string,
  markdown = readFileSync(new URL(source.file, DOCS_DIR), 'utf8'),
): RenderedGuide {
  const toc: TocEntry[] = []
  const body = markdownRenderer(base, toc).render(markdown)
  const title = /^# (.+)$/m.exec(markdown)?.[1]?.trim() ?? source.file
  return { source, title, html: body, markdown: servedMarkdown(markdown, base), toc }
}

function tableOfContents(toc: readonly TocEntry[]): Html {
  const items: Html[] = []
  for (let i = 0; i < toc.length; i++) {
    const entry = toc[i]!
    if (entry.level !== 2) continue
    const children: TocEntry[] = []
    while (toc[i + 1] !== undefined && toc[i + 1]!.level > 2) children.push(toc[++i]!)
    const sub =
      children.length === 0
        ? ''
        : html`<ol>${children.map((c) => html`<li><a href="#${c.slug}">${c.title}</a></li>`)}</ol>`
    items.push(html`<li><a href="#${entry.slug}">${entry.title}</a>${sub}</li>`)
  }
  return html`<nav class="toc" aria-labelledby="toc-title"><h2 id="toc-title">Contents</h2><ol>${items}</ol></nav>`
}

/** The guide's page: the table of contents beside (or, on a phone, above) the article, in English. */
export function renderGuidePage(site: Site, guide: RenderedGuide, all: readonly RenderedGuide[]): string {
  const others = all.filter((g) => g !== guide)
  return renderPage(site, {
    title: guide.title,
    description: guide.source.summary,
    section: 'docs',
    body: html`<div class="guide" lang="en">
${tableOfContents(guide.toc)}
<article class="guide-body">
${trusted(guide.html)}
<aside class="panel" aria-label="Other guides and formats">
<p>Other guides: ${others.map((g, i) => html`${i > 0 ? ' · ' : ''}<a href="${site.base}${g.source.path}">${g.title}</a>`)}.
This page in Markdown: <a href="${site.base}${guide.source.path}.md">${guide.source.file}</a>.
The API's machine-readable description: <a href="${site.base}/api/v1/openapi.json?po_live=1">openapi.json</a>; try it in the <a href="${site.base}/reference">interactive reference</a>.</p>
</aside>
</article>
</div>`,
  })
}
