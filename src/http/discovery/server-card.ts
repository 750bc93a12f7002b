/**
 * `GET /.well-known/mcp/server-card.json`: the MCP endpoint's Server Card (SEP-2127), what a client
 * reads before it connects: identity, the streamable-HTTP remote and the protocol revisions it
 * serves. A card lists no tools (the extension leaves them to `tools/list`); the documentation's
 * addresses go in `_meta`, under the server's own namespace, as the card's extension point asks.
 */
import type { Catalogue } from '../../core/api/schemas.js'
import type { Remote, ServerIdentity } from './identity.js'

/** The card schema's one accepted `$schema` (its revisions are numbered, not dated). */
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json'
/**
 * Where the extension's current text reserves the card: `GET <streamable-http-url>/server-card`
 * (`/mcp/server-card` here), found through an AI Catalog rather than under `.well-known`, which its
 * draft of 2026-07 keeps for site-wide documents. The card stays at `/.well-known/mcp/server-card.json`
 * too, where the earlier drafts put it and clients already look.
 */
export const hostedServerCardPath = (mcpLink: string): string =>
  `${new URL(mcpLink, 'http://localhost').pathname.replace(/\/$/, '')}/server-card`

/** The card's media type, sent when a client asks for it (the extension says clients should). */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json'

export type ServerCard = {
  $schema: typeof SERVER_CARD_SCHEMA
  name: string
  title: string
  description: string
  version: string
  websiteUrl?: string
  remotes: (Remote & { supportedProtocolVersions: string[] })[]
  _meta: Record<string, Record<string, string>>
}

/** The key under `_meta` holding the documentation's addresses, e.g. `org.example.records/links`. */
const linksMetaKey = (identity: ServerIdentity) => `${identity.namespace}/links`

/**
 * The card of `identity`, whose endpoint serves `protocolVersions`; `links` are the catalogue's,
 * the documentation's addresses listed under `_meta`.
 */
export function buildServerCard(
  identity: ServerIdentity,
  links: Catalogue['links'],
  protocolVersions: readonly string[],
): ServerCard {
  const documentation: Record<string, string> = {
    docs: links.docs,
    catalogue: links.self,
    openapi: links.openapi,
  }
  if (links.llms !== undefined) documentation.llms = links.llms
  if (links.server_json !== undefined) documentation.server_json = links.server_json
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: identity.name,
    title: identity.title,
    description: identity.description,
    version: identity.version,
    ...(identity.websiteUrl === undefined ? {} : { websiteUrl: identity.websiteUrl }),
    remotes: [{ ...identity.remote, supportedProtocolVersions: [...protocolVersions] }],
    _meta: { [linksMetaKey(identity)]: documentation },
  }
}
