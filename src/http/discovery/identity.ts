/**
 * Who the MCP endpoint is and where it lives, as the MCP Registry's server.json and the Server Card
 * both say it: one name, title, description and remote, so the two documents can never disagree.
 * Everything comes from the settings (the public base URL, the package version) and the catalogue's
 * links; nothing from a request, since the service never builds an address from `Host`.
 */
import type { Catalogue } from '../../core/api/schemas.js'

/**
 * What the discovery documents say about the MCP endpoint. Given by the composition root, which
 * knows the MCP adapter (this adapter knows no protocol); asked when a document first needs it.
 */
export type McpDescription = {
  /** The server's own name (MCP `serverInfo.name`), the part of the registry name after the slash. */
  name: string
  /** Protocol revisions the endpoint serves, newest first. */
  protocolVersions(): Promise<readonly string[]>
  /** The tools, as `tools/list` answers them. */
  tools(): Promise<readonly McpToolSummary[]>
}

export type McpToolSummary = { name: string; title?: string; description?: string }

/** The settings every discovery document is built from. */
export type DiscoverySettings = {
  /** PUBLIC_BASE_URL (no trailing slash), or undefined: then no absolute address is known. */
  publicBaseUrl?: string
  /** The package version (src/core/version.ts). */
  version: string
  /** The catalogue's links (absolute on the base URL, root-relative without one). */
  links: Catalogue['links']
  /** The MCP endpoint, when one is served (the catalogue then links it). */
  mcp?: McpDescription
}

/** A remote as both schemas write it: a URL, or a URL template and its variables. */
export type Remote = {
  type: 'streamable-http'
  url: string
  variables?: Record<string, { description: string; isRequired: true; placeholder?: string }>
}

export type ServerIdentity = {
  /** Reverse-DNS name, `namespace/server`. */
  name: string
  namespace: string
  title: string
  description: string
  version: string
  /** The guide, when its address is absolute (the schemas want a URI). */
  websiteUrl?: string
  remote: Remote
  /** What the MCP endpoint says of itself: its protocol revisions and tools. */
  mcp: McpDescription
}

export const TITLE = 'Reference-Records'
/** At most 100 characters: the registry and the card schema both refuse more. */
export const DESCRIPTION =
  'Public French driving-licence records: official road rules with legal sources, lessons, offers.'
/**
 * The namespace when the service does not know its domain (no PUBLIC_BASE_URL, or one on an IP address or localhost):
 * `.invalid` is reserved never to be a real domain (RFC 6761), so the name says plainly that it
 * names no publisher, and no registry will take it, rather than claiming a namespace nobody proved.
 */
export const UNKNOWN_HOST_NAMESPACE = 'invalid.reference-records'
const HOST_VARIABLE = 'host'

/** `records.example.org` → `org.example.records`; undefined when the host is no domain name. */
export function reverseDnsNamespace(publicBaseUrl: string | undefined): string | undefined {
  if (publicBaseUrl === undefined) return undefined
  const host = new URL(publicBaseUrl).hostname.replace(/\.$/, '')
  // An IP address or a single label (localhost) names no namespace anyone could prove; IPv6 hosts keep their brackets here.
  if (host.startsWith('[') || !host.includes('.') || /^\d+(\.\d+){3}$/.test(host)) return undefined
  return host.split('.').reverse().join('.')
}

/** The MCP endpoint's remote: its absolute URL, or, without a base URL, a template on the instance's host. */
function remoteOf(mcpLink: string, publicBaseUrl: string | undefined): Remote {
  if (publicBaseUrl !== undefined) return { type: 'streamable-http', url: mcpLink }
  return {
    type: 'streamable-http',
    url: `https://{${HOST_VARIABLE}}${mcpLink}`,
    variables: {
      [HOST_VARIABLE]: {
        description: 'Host name (and port, if not 443) of the reference-records instance to connect to.',
        isRequired: true,
        placeholder: 'records.example.org',
      },
    },
  }
}

/** The identity of the MCP endpoint, or undefined when none is served. */
export function serverIdentity(settings: DiscoverySettings): ServerIdentity | undefined {
  const { links, publicBaseUrl, mcp } = settings
  if (links.mcp === undefined || mcp === undefined) return undefined
  const namespace = reverseDnsNamespace(publicBaseUrl) ?? UNKNOWN_HOST_NAMESPACE
  return {
    name: `${namespace}/${mcp.name}`,
    namespace,
    title: TITLE,
    description: DESCRIPTION,
    version: settings.version,
    ...(publicBaseUrl === undefined ? {} : { websiteUrl: links.docs }),
    remote: remoteOf(links.mcp, publicBaseUrl),
    mcp,
  }
}
