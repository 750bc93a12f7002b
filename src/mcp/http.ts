/**
 * MCP over Streamable HTTP at /mcp, stateless: every request gets a fresh server instance from the
 * SDK's createMcpHandler, which serves both protocol eras (2025 `initialize` clients through its
 * stateless legacy leg, 2026-07-28 clients natively) and answers GET/DELETE as a stateless server
 * must. No session affinity, so it works behind any load balancer of replicas.
 */
import { toNodeHandler } from '@modelcontextprotocol/node'
import { createMcpHandler } from '@modelcontextprotocol/server'
import type { FastifyInstance } from 'fastify'
import type { RecordReader } from './reader.js'
import { createMcpServer } from './server.js'

export const MCP_PATH = '/mcp'
/** Request headers MCP clients send (Streamable HTTP), allowed by CORS preflights. */
export const MCP_REQUEST_HEADERS = ['Mcp-Protocol-Version', 'Mcp-Session-Id', 'Mcp-Method', 'Mcp-Name', 'Last-Event-ID']
export const isMcpPath = (url: string) => url === MCP_PATH || url.startsWith(`${MCP_PATH}?`) || url.startsWith(`${MCP_PATH}/`)
/** Largest JSON-RPC request body accepted; tool arguments here are a few hundred bytes. */
const MAX_BODY_BYTES = 64 * 1024

export async function mcpRoutes(app: FastifyInstance, reader: RecordReader, version: string): Promise<void> {
  const handler = createMcpHandler(() => createMcpServer(reader, version), {
    legacy: 'stateless',
    responseMode: 'json',
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror: (err) => app.log.debug({ err: err.message }, 'mcp request rejected'),
  })
  const serve = toNodeHandler(handler, {
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror: (err) => app.log.error({ err }, 'mcp handler failed'),
  })
  app.addHook('onClose', async () => handler.close())

  await app.register(async (mcp) => {
    // The SDK reads and parses the body itself, so a malformed one gets a JSON-RPC parse error, not our 400.
    mcp.removeAllContentTypeParsers()
    mcp.addContentTypeParser('*', (_req, _payload, done) => done(null))
    mcp.route({
      method: ['POST', 'GET', 'DELETE'],
      url: MCP_PATH,
      handler: async (req, reply) => {
        // Headers set by our hooks (CORS, request id, rate-limit fields) go with the SDK's response.
        for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value)
        reply.hijack()
        await serve(req.raw, reply.raw)
      },
    })
  })
}
