/**
 * MCP over Streamable HTTP at /mcp, stateless: every request gets a fresh server instance, so no
 * session affinity is needed behind a load balancer of replicas. 2026-07-28 requests go to the SDK's
 * createMcpHandler; 2025-era requests (the `initialize` handshake and what follows) are routed with
 * the SDK's own isLegacyRequest to a stateless transport that answers in JSON — the handler's built-in
 * legacy leg answers with Server-Sent Events, which costs every client a stream for one result.
 */
import { toNodeHandler } from '@modelcontextprotocol/node'
import { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server'
import type { FastifyInstance } from 'fastify'
import { isUnderPath } from '../http/query.js'
import type { RecordReader } from './reader.js'
import { createMcpServer } from './server.js'

export const MCP_PATH = '/mcp'
/** Request headers MCP clients send (Streamable HTTP), allowed by CORS preflights. */
export const MCP_REQUEST_HEADERS = ['Mcp-Protocol-Version', 'Mcp-Session-Id', 'Mcp-Method', 'Mcp-Name', 'Last-Event-ID']
export const isMcpPath = (url: string) => isUnderPath(url, MCP_PATH)
/** Largest JSON-RPC request body accepted; tool arguments here are a few hundred bytes. */
const MAX_BODY_BYTES = 64 * 1024

export async function mcpRoutes(app: FastifyInstance, reader: RecordReader, version: string): Promise<void> {
  const factory = () => createMcpServer(reader, version)
  const modern = createMcpHandler(factory, {
    legacy: 'reject',
    responseMode: 'json',
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror: (err) => app.log.debug({ err: err.message }, 'mcp request rejected'),
  })
  const legacy = async (request: Request): Promise<Response> => {
    // A stateless server has no session to stream on or to end (MCP spec, Streamable HTTP).
    if (request.method !== 'POST') return methodNotAllowed()
    const server = factory()
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    await server.connect(transport)
    try {
      return await transport.handleRequest(request)
    } finally {
      void server.close()
    }
  }
  const handler = {
    fetch: async (request: Request) =>
      (await isLegacyRequest(request, undefined, { maxRequestBodySize: MAX_BODY_BYTES })) ? legacy(request) : modern.fetch(request),
  }
  const serve = toNodeHandler(handler, {
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror: (err) => app.log.error({ err }, 'mcp handler failed'),
  })
  app.addHook('onClose', async () => modern.close())

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

function methodNotAllowed(): Response {
  const body = { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed: this stateless MCP endpoint takes POST only.' } }
  return new Response(JSON.stringify(body), { status: 405, headers: { 'content-type': 'application/json', allow: 'POST, OPTIONS' } })
}
