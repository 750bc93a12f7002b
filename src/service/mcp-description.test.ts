import type { IncomingMessage } from 'node:http'
import { expect, it } from 'vitest'
import type { McpNodeHandler } from '../mcp/node-handler.js'
import { describeMcp } from './mcp-description.js'

/** A handler that answers tools/list and server/discover, counting what it is asked; `failing` methods answer an error. */
function fakeHandler(failing: Set<string>) {
  const asked: string[] = []
  const answer = async (req: IncomingMessage): ReturnType<McpNodeHandler['answer']> => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const { method } = JSON.parse(Buffer.concat(chunks).toString()) as { method: string }
    asked.push(method)
    const body = failing.has(method)
      ? { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'down' } }
      : method === 'tools/list'
        ? { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'search_facts', description: 'Searches.' }] } }
        : { jsonrpc: '2.0', id: 1, result: { supportedVersions: ['2026-07-28'] } }
    return { reply: { body: [Buffer.from(JSON.stringify(body))] } } as unknown as Awaited<
      ReturnType<McpNodeHandler['answer']>
    >
  }
  return { asked, answer }
}

it('asks the endpoint once, at once, whatever the number of documents that read the answers (issue 43)', async () => {
  const handler = fakeHandler(new Set())
  const description = describeMcp(handler)
  await Promise.all([description.tools(), description.protocolVersions()])
  // Asked when made, before any document reads it.
  expect(handler.asked.sort()).toEqual(['server/discover', 'tools/list'])
  for (let i = 0; i < 3; i++) {
    expect((await description.tools()).map((t) => t.name)).toEqual(['search_facts'])
    expect((await description.protocolVersions())[0]).toBe('2026-07-28')
  }
  expect(handler.asked).toHaveLength(2)
})

it('keeps no failure: the next document asks again', async () => {
  const failing = new Set(['tools/list'])
  const handler = fakeHandler(failing)
  const description = describeMcp(handler)
  await expect(description.tools()).rejects.toThrow(/tools\/list failed: down/)
  failing.clear()
  expect((await description.tools()).map((t) => t.name)).toEqual(['search_facts'])
  expect(handler.asked.filter((m) => m === 'tools/list')).toHaveLength(2)
})
