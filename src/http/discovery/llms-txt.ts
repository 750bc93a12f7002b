/**
 * `GET /llms.txt` (llmstxt.org): the service told to a language model in one short Markdown file —
 * what the records are, how many of each kind the served snapshot holds, the rules for using them
 * well, and where to go: the API's entry points, the MCP endpoint and its tools, the reuse
 * conditions. Built per snapshot from its catalogue; prose in English, the records' titles in French.
 */
import type { Catalogue } from '../../core/api/schemas.js'
import { kindLabel } from '../../core/records/provenance.js'
import { KINDS } from '../../core/records/record.js'
import { recordPath } from '../pages/record-view.js'
import { SEARCH_PATH } from '../pages/search-params.js'
import type { McpToolSummary } from './identity.js'

export type LlmsTxtInput = {
  catalogue: Catalogue
  /** The public base URL, or '' for root-relative links (they resolve against this file's address). */
  base: string
  /** The organization records: who publishes the records. */
  publishers: readonly { id: string; title: string }[]
  /** The MCP endpoint, when one is served: its protocol revisions and its tools. */
  mcp?: { protocolVersions: readonly string[]; tools: readonly McpToolSummary[] }
}

/** The guide's section on the MCP server, where each tool is described. */
const MCP_GUIDE_ANCHOR = '#mcp-tool-protocol-server'
const SEARCH_EXAMPLE = 'priorité à droite'

/** Link text may not hold brackets unescaped; the records' titles are free text. */
const linkText = (text: string) => text.replace(/[[\]\\]/g, (c) => `\\${c}`)
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim()
/** The first sentence: tool descriptions are written for a model that calls the tool, and run long. */
const firstSentence = (text: string) => /^.*?[.!?](?=\s|$)/s.exec(oneLine(text))?.[0] ?? oneLine(text)

export function buildLlmsTxt(input: LlmsTxtInput): string {
  const sections = [
    intro(input),
    apiSection(input),
    input.mcp === undefined ? undefined : mcpSection(input, input.mcp),
    reuseSection(input),
    optionalSection(input),
  ]
  return `${sections.filter((s) => s !== undefined).join('\n\n')}\n`
}

function intro({ catalogue, base, publishers }: LlmsTxtInput): string {
  const publishedBy =
    publishers.length === 0
      ? ''
      : `Published by ${publishers.map((p) => `[${linkText(p.title)}](${base}${recordPath(p.id)})`).join(', ')}. `
  const rpm = catalogue.limits.requests_per_minute
  const counts = KINDS.map((kind) => `- \`${kind}\` ${kindLabel(kind)}: ${catalogue.records.by_kind[kind]}`)
  return [
    '# Reference-Records',
    '> Public, read-only records of a French driving-licence training website: official road rules with their legal sources and verification dates, lessons, method, offers, the organization and its people. An HTTP API (JSON, no key) and an MCP server.',
    `${publishedBy}The records are in French, titles and texts; this file and the API guide are in English.`,
    'Official rules (kind `fact`, with their official sources and the date they were last verified against the text) are distinct from explanations: lessons, articles, method and offers explain or sell, they are not rules; keep the two apart when you answer or quote. ' +
      "Search before concluding that a rule is absent: the search reads questions, word forms, everyday words and typos, and `match=best` ranks the records holding the most of the query's words. " +
      "Cite the record page (each record's `url`) when you use a record.",
    `Records in the served snapshot (published ${catalogue.updated_at}), ${catalogue.records.total} in all:\n${counts.join('\n')}`,
    (rpm === 0
      ? 'No key, no account, and no request quota on this instance. '
      : `No key, no account. At most ${rpm} requests per minute per client, shared by the API, the MCP server, the search and record pages and these discovery documents; past it, \`429\` with \`Retry-After\`. `) +
      'The JSON operations of the API first answer `307` to their live read, the same address with `po_live=1`; the links below carry it.',
  ].join('\n\n')
}

function apiSection({ catalogue: { links, limits } }: LlmsTxtInput): string {
  const search = `${links.search}?q=${encodeURIComponent(SEARCH_EXAMPLE)}&match=best&po_live=1`
  return [
    '## API',
    '',
    `- [Catalogue](${links.self}?po_live=1): record counts per kind, links, limits and reuse conditions (JSON)`,
    `- [Search](${search}): \`GET ${links.search}?q=…&match=best&po_live=1\`, \`q\` in French (at most ${limits.max_q_length} characters), with \`kind\`, \`region\`, \`limit\` (1–${limits.max_limit}) and \`offset\`; the answer says how \`q\` was read, and under \`match=best\` which words each result lacks`,
    `- [One record](${links.record}?po_live=1): by its id (from a search), with its text, page \`url\`, sources and verification date`,
    `- [OpenAPI document](${links.openapi}?po_live=1): the API's machine-readable description (OpenAPI 3.1)`,
    ...(links.download === undefined
      ? []
      : [`- [Download](${links.download}): every record as NDJSON, in one request`]),
    `- [API guide](${links.docs}.md): addresses, parameters, errors, quota and the MCP server, in Markdown`,
  ].join('\n')
}

function mcpSection({ catalogue: { links } }: LlmsTxtInput, mcp: NonNullable<LlmsTxtInput['mcp']>): string {
  const tools = mcp.tools.map((t) => {
    const what = [t.title, t.description === undefined ? undefined : firstSentence(t.description)].filter(
      (x) => x !== undefined && x !== '',
    )
    return `- [${linkText(t.name)}](${links.docs}${MCP_GUIDE_ANCHOR})${what.length === 0 ? '' : `: ${what.join(' — ')}`}`
  })
  return [
    '## MCP',
    '',
    `- [MCP endpoint](${links.mcp}): Streamable HTTP, \`POST\`, stateless, JSON answers; protocol revisions ${mcp.protocolVersions.join(', ')}; each request counts in the quota`,
    ...tools,
    ...(links.server_card === undefined
      ? []
      : [`- [Server card](${links.server_card}): the endpoint's MCP Server Card, read before connecting`]),
    ...(links.server_json === undefined
      ? []
      : [`- [server.json](${links.server_json}): the endpoint as an MCP Registry entry`]),
  ].join('\n')
}

function reuseSection({ catalogue: { reuse, links }, base }: LlmsTxtInput): string {
  return [
    '## Reuse',
    '',
    `- [Reuse conditions](${base}/#reutilisation): ${oneLine(reuse.summary)} Attribution: \`${reuse.attribution}\`. Permission requests: ${reuse.contact}`,
    `- [Citing a record](${base}/docs#reusing-the-records): each record page carries schema.org JSON-LD, \`citation_*\` tags and a CSL-JSON citation; an official rule verified more than 12 months ago is flagged "à revérifier"`,
    ...(links.dcat === undefined
      ? []
      : [
          `- [DCAT description](${links.dcat}): the dataset, its download and its API, for data portals (JSON-LD)`,
        ]),
    ...(links.sitemap === undefined
      ? []
      : [`- [Sitemap](${links.sitemap}): every record page with when it last changed`]),
  ].join('\n')
}

function optionalSection({ base }: LlmsTxtInput): string {
  return [
    '## Optional',
    '',
    `- [Search page](${base}${SEARCH_PATH}): the same search for people, in French`,
    `- [Interactive reference](${base}/reference): every operation of the API, to try`,
    `- [Search guide](${base}/docs/search.md): how a query is read and how results are ranked`,
  ].join('\n')
}
