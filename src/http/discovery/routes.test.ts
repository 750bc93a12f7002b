/** The routes on a bare app: what needs records and what does not, methods, the card's media type. */
import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { send } from '../../../test/support/in-process.js'
import { Catalogues } from '../../core/api/catalogue.js'
import { LiveRecords } from '../../core/snapshots/live-records.js'
import { registerErrorHandlers } from '../error-handler.js'
import type { McpDescription } from './identity.js'
import { registerDiscovery } from './routes.js'
import { SERVER_CARD_MEDIA_TYPE } from './server-card.js'

const mcp: McpDescription = {
  name: 'reference-records',
  protocolVersions: async () => ['2026-07-28', '2025-11-25'],
  tools: async () => [{ name: 'search_facts' }],
}
const catalogues = new Catalogues({ requestsPerMinute: 120, contact: 'contact@example.org', mcpPath: '/mcp' })

let app: FastifyInstance
afterEach(() => app?.close())

/** An app with no snapshot loaded yet: a replica waiting for its first publication. */
function appBeforeFirstSnapshot(): FastifyInstance {
  app = Fastify()
  registerErrorHandlers(app)
  registerDiscovery(app, { records: new LiveRecords(), catalogues, version: '1.2.3', mcp })
  return app
}

describe('registerDiscovery', () => {
  it('serves server.json and the card before the first snapshot (they need no records), llms.txt not (503)', async () => {
    const app = appBeforeFirstSnapshot()
    expect((await send(app, { target: '/server.json' })).status).toBe(200)
    expect((await send(app, { target: '/.well-known/mcp/server-card.json' })).status).toBe(200)
    const llms = await send(app, { target: '/llms.txt' })
    expect(llms.status).toBe(503)
    expect(llms.headers['retry-after']).toBe('5')
    expect(llms.json()).toEqual({
      error: { code: 'unavailable', message: 'No records are loaded yet; retry shortly' },
    })
  })

  it('answers the card in its own media type when asked for it, with a tag of its own', async () => {
    const app = appBeforeFirstSnapshot()
    const plain = await send(app, { target: '/.well-known/mcp/server-card.json' })
    const typed = await send(app, {
      target: '/.well-known/mcp/server-card.json',
      headers: { accept: SERVER_CARD_MEDIA_TYPE },
    })
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(typed.headers['content-type']).toBe(SERVER_CARD_MEDIA_TYPE)
    expect(typed.text).toBe(plain.text)
    expect(typed.headers.etag).not.toBe(plain.headers.etag)
    expect(typed.headers.vary).toBe('Accept, Accept-Encoding')
    expect(
      (plain.json() as { remotes: { supportedProtocolVersions: string[] }[] }).remotes[0]!
        .supportedProtocolVersions,
    ).toEqual(['2026-07-28', '2025-11-25'])
  })

  it('serves no MCP document when no MCP endpoint is linked', async () => {
    app = Fastify()
    registerErrorHandlers(app)
    registerDiscovery(app, {
      records: new LiveRecords(),
      catalogues: new Catalogues({ requestsPerMinute: 0, contact: 'contact@example.org' }),
      version: '1.2.3',
    })
    expect((await send(app, { target: '/server.json' })).status).toBe(404)
    expect((await send(app, { target: '/llms.txt' })).status).toBe(503)
  })

  it('refuses to start when the catalogue links an MCP endpoint it is told nothing about', () => {
    app = Fastify()
    expect(() =>
      registerDiscovery(app, { records: new LiveRecords(), catalogues, version: '1.2.3' }),
    ).toThrow(/no MCP description/)
  })
})
