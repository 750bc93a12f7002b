/**
 * `GET /robots.txt` (RFC 9309): the pages are open to crawlers, and the sitemap is named when a
 * public base URL makes its address absolute (the `Sitemap` line must be an absolute URL, as the
 * sitemap's own addresses must). The API and the MCP endpoint are for programs, which do not read
 * this file: a crawler asked to skip them spends no quota on 307s and JSON it would not index, and
 * loses nothing, since every record has its page (listed by the sitemap). Depends on the settings
 * only, so it is built once.
 */
import { API_PREFIX } from '../../core/api/schemas.js'

export const ROBOTS_PATH = '/robots.txt'

export type RobotsTxtInput = {
  /** The public base URL, when one is configured: its path prefix is in every rule, and it names the sitemap. */
  publicBaseUrl?: string
  /** The sitemap's path, served only with a public base URL. */
  sitemapPath: string
  /** The MCP endpoint's path, when one is served. */
  mcpPath?: string
}

export function buildRobotsTxt(input: RobotsTxtInput): string {
  // Crawlers read the rules against the origin's paths: behind a path prefix, the rules carry it.
  const prefix =
    input.publicBaseUrl === undefined ? '' : new URL(input.publicBaseUrl).pathname.replace(/\/$/, '')
  const lines = [
    '# reference-records: the record pages, the search and the guide are open to crawlers.',
    '# The API and the MCP endpoint serve the same records to programs.',
    'User-agent: *',
    `Allow: ${prefix}/`,
    `Disallow: ${prefix}${API_PREFIX}/`,
    ...(input.mcpPath === undefined ? [] : [`Disallow: ${prefix}${input.mcpPath}`]),
  ]
  if (input.publicBaseUrl !== undefined) lines.push('', `Sitemap: ${input.publicBaseUrl}${input.sitemapPath}`)
  return `${lines.join('\n')}\n`
}
