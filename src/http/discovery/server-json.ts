/**
 * `GET /server.json`: the MCP endpoint described as an entry of the MCP Registry, in the registry's
 * server.json format, ready for `mcp-publisher publish` once PUBLIC_BASE_URL names the real host.
 * A remote only (no package): the records are served, not installed.
 */
import type { Remote, ServerIdentity } from './identity.js'

/** The registry's schema revision this document follows. */
export const SERVER_JSON_SCHEMA =
  'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json'

export type ServerJson = {
  $schema: typeof SERVER_JSON_SCHEMA
  name: string
  title: string
  description: string
  version: string
  websiteUrl?: string
  remotes: Remote[]
}

export function buildServerJson(identity: ServerIdentity): ServerJson {
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: identity.name,
    title: identity.title,
    description: identity.description,
    version: identity.version,
    ...(identity.websiteUrl === undefined ? {} : { websiteUrl: identity.websiteUrl }),
    remotes: [identity.remote],
  }
}
