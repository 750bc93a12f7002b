import { expect, it } from 'vitest'
import { Catalogues } from '../core/api/catalogue.js'
import { sampleIndex } from '../core/search/warm-up.js'
import { createMcpNodeHandler } from '../mcp/node-handler.js'
import { warmMcpTools } from './mcp-warm-up.js'

it('calls each read tool on the sample and each answers a result: a renamed tool or argument would leave it cold', async () => {
  const failed = await warmMcpTools(sampleIndex(), {
    version: '0.0.0',
    recordPage: (r) => `/fiches/${r.id}`,
    catalogues: new Catalogues({ requestsPerMinute: 120, contact: 'contact@example.org', mcpPath: '/mcp' }),
    createHandler: createMcpNodeHandler,
  })
  expect(failed).toEqual([])
})

it('names a tool that does not answer a result', async () => {
  const failed = await warmMcpTools(sampleIndex(), {
    version: '0.0.0',
    recordPage: (r) => `/fiches/${r.id}`,
    catalogues: new Catalogues({ requestsPerMinute: 120, contact: 'contact@example.org', mcpPath: '/mcp' }),
    // A reader that cannot search (nor read: a spread copies no class method): the tools answer errors.
    createHandler: (reader, options) =>
      createMcpNodeHandler(
        { ...reader, search: () => Promise.reject(new Error('no')) } as typeof reader,
        options,
      ),
  })
  expect(failed).toContain('search_facts')
})
