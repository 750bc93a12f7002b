/** The MCP endpoint's identity, and the two documents that state it: server.json and the Server Card. */
import { describe, expect, it } from 'vitest'
import { serverCardProblems, serverJsonProblems } from '../../../test/support/discovery-schemas.js'
import { catalogueLinks } from '../../core/api/catalogue.js'
import {
  DESCRIPTION,
  TITLE,
  UNKNOWN_HOST_NAMESPACE,
  reverseDnsNamespace,
  serverIdentity,
  type DiscoverySettings,
  type McpDescription,
} from './identity.js'
import { SERVER_CARD_SCHEMA, buildServerCard } from './server-card.js'
import { SERVER_JSON_SCHEMA, buildServerJson } from './server-json.js'

const REGISTRY_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/
const mcp: McpDescription = {
  name: 'reference-records',
  protocolVersions: async () => ['2026-07-28'],
  tools: async () => [],
}
/** The settings of a service at `publicBaseUrl` with an MCP endpoint at `mcpPath` (null: none). */
const settings = (publicBaseUrl?: string, mcpPath: string | null = '/mcp'): DiscoverySettings => ({
  publicBaseUrl,
  version: '1.2.3',
  links: catalogueLinks({
    publicBaseUrl,
    requestsPerMinute: 120,
    contact: 'contact@example.org',
    mcpPath: mcpPath ?? undefined,
  }),
  mcp,
})

describe('reverseDnsNamespace', () => {
  it.each([
    ['https://records.example.org', 'org.example.records'],
    ['https://records.example.org:8443/prefix', 'org.example.records'],
    ['http://Records.Example.ORG.', 'org.example.records'],
    ['https://xn--fiches-rfrence-hkb.example', 'example.xn--fiches-rfrence-hkb'],
  ])('reverses the host of %s', (url, namespace) => {
    expect(reverseDnsNamespace(url)).toBe(namespace)
  })

  it.each(['http://127.0.0.1:8080', 'http://[::1]:8080', 'http://localhost:8080'])(
    'names no namespace for %s, a host that is no domain',
    (url) => {
      expect(reverseDnsNamespace(url)).toBeUndefined()
    },
  )

  it('names none without a base URL', () => {
    expect(reverseDnsNamespace(undefined)).toBeUndefined()
  })
})

describe('serverIdentity', () => {
  it('with a base URL: a name from its host, the remote and the guide on it', () => {
    expect(serverIdentity(settings('https://records.example.org'))).toEqual({
      name: 'org.example.records/reference-records',
      namespace: 'org.example.records',
      title: TITLE,
      description: DESCRIPTION,
      version: '1.2.3',
      websiteUrl: 'https://records.example.org/docs',
      remote: { type: 'streamable-http', url: 'https://records.example.org/mcp' },
      mcp,
    })
  })

  it('keeps the base URL path prefix in the addresses, not in the name', () => {
    const identity = serverIdentity(settings('https://example.org/records'))!
    expect(identity.name).toBe('org.example/reference-records')
    expect(identity.remote.url).toBe('https://example.org/records/mcp')
  })

  it('without a base URL: no absolute address, a host variable, and a name that claims no namespace', () => {
    const identity = serverIdentity(settings(undefined))!
    expect(identity.name).toBe(`${UNKNOWN_HOST_NAMESPACE}/reference-records`)
    expect(identity.websiteUrl).toBeUndefined()
    expect(identity.remote).toEqual({
      type: 'streamable-http',
      url: 'https://{host}/mcp',
      variables: {
        host: {
          description: expect.stringMatching(/^Host name/),
          isRequired: true,
          placeholder: 'records.example.org',
        },
      },
    })
  })

  it('names are what the registry accepts, with or without a base URL', () => {
    for (const base of [undefined, 'https://records.example.org', 'http://127.0.0.1:8080'])
      expect(serverIdentity(settings(base))!.name, base).toMatch(REGISTRY_NAME)
  })

  it('describes the service in at most 100 characters, as the registry and the card schema require', () => {
    expect(DESCRIPTION.length).toBeLessThanOrEqual(100)
    expect(TITLE.length).toBeLessThanOrEqual(100)
  })

  it('is undefined when no MCP endpoint is served', () => {
    expect(serverIdentity(settings('https://records.example.org', null))).toBeUndefined()
    expect(serverIdentity({ ...settings(undefined), mcp: undefined })).toBeUndefined()
  })
})

const VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18']
const documentsOf = (base: string | undefined) => {
  const s = settings(base)
  const identity = serverIdentity(s)!
  return { serverJson: buildServerJson(identity), card: buildServerCard(identity, s.links, VERSIONS) }
}

describe('buildServerJson', () => {
  it('with a base URL: the registry entry of the remote at that address', () => {
    expect(documentsOf('https://records.example.org').serverJson).toEqual({
      $schema: SERVER_JSON_SCHEMA,
      name: 'org.example.records/reference-records',
      title: TITLE,
      description: DESCRIPTION,
      version: '1.2.3',
      websiteUrl: 'https://records.example.org/docs',
      remotes: [{ type: 'streamable-http', url: 'https://records.example.org/mcp' }],
    })
  })

  it('without one: a self-hosted instance, its host left for the client to fill in', () => {
    const { serverJson } = documentsOf(undefined)
    expect(serverJson).not.toHaveProperty('websiteUrl')
    expect(serverJson.remotes).toEqual([
      {
        type: 'streamable-http',
        url: 'https://{host}/mcp',
        variables: { host: expect.objectContaining({ isRequired: true }) },
      },
    ])
  })

  it.each([undefined, 'https://records.example.org', 'https://example.org/records', 'http://127.0.0.1:8080'])(
    'is valid against the registry schema (base URL %s)',
    (base) => {
      expect(serverJsonProblems(documentsOf(base).serverJson)).toEqual([])
    },
  )
})

describe('buildServerCard', () => {
  it('states the same identity and remote as server.json, with the protocol revisions served', () => {
    const { serverJson, card } = documentsOf('https://records.example.org')
    expect(card).toMatchObject({
      $schema: SERVER_CARD_SCHEMA,
      name: serverJson.name,
      title: serverJson.title,
      description: serverJson.description,
      version: serverJson.version,
      websiteUrl: serverJson.websiteUrl,
    })
    expect(card.remotes).toEqual([{ ...serverJson.remotes[0], supportedProtocolVersions: VERSIONS }])
  })

  it("links the documentation under _meta, in the server's namespace", () => {
    expect(documentsOf('https://records.example.org').card._meta).toEqual({
      'org.example.records/links': {
        docs: 'https://records.example.org/docs',
        catalogue: 'https://records.example.org/api/v1/',
        openapi: 'https://records.example.org/api/v1/openapi.json',
        llms: 'https://records.example.org/llms.txt',
        server_json: 'https://records.example.org/server.json',
      },
    })
    expect(documentsOf(undefined).card._meta[`${UNKNOWN_HOST_NAMESPACE}/links`]).toMatchObject({
      docs: '/docs',
      llms: '/llms.txt',
    })
  })

  it.each([undefined, 'https://records.example.org', 'http://[::1]:8080'])(
    'is valid against the card schema (base URL %s)',
    (base) => {
      expect(serverCardProblems(documentsOf(base).card)).toEqual([])
    },
  )
})
