/**
 * MCP requests: `tools/call search_facts` JSON-RPC bodies, stateless, in the two protocol eras the
 * service serves (src/mcp/node-handler.ts):
 * - 2025 ("legacy"): no initialize, no session; a stateless transport answers in JSON (the SDK's
 *   built-in legacy leg would answer with one Server-Sent Event).
 * - 2026-07-28 ("modern"): the per-request `_meta` envelope plus the Mcp-Method/Mcp-Name headers the
 *   SDK requires (without them: 400, -32020); answered as plain JSON (responseMode 'json').
 */
import type { CorpusSample } from './mix.js'
import type { PlannedRequest } from './mix-file.js'

export type McpEra = 'legacy' | 'modern'

const MODERN = '2026-07-28'
const BASE_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }

/** One JSON-RPC tools/call body (and its headers) for `arguments`. */
export function mcpCall(
  era: McpEra,
  id: number,
  args: Record<string, unknown>,
): { headers: Record<string, string>; body: string } {
  const params: Record<string, unknown> = { name: 'search_facts', arguments: args }
  if (era === 'legacy')
    return {
      headers: BASE_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
    }
  params._meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'reference-records-bench', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  }
  const headers = {
    ...BASE_HEADERS,
    'Mcp-Protocol-Version': MODERN,
    'Mcp-Method': 'tools/call',
    'Mcp-Name': 'search_facts',
  }
  return { headers, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }) }
}

/** 8 searches over the sample's words, 10 results each (two filtered by kind), like an agent's calls. */
export function planMcpMix({ words, records }: CorpusSample, era: McpEra): PlannedRequest[] {
  const args: Record<string, unknown>[] = words.slice(0, 6).map((q) => ({ q, limit: 10 }))
  args.push(
    { q: words[0], kind: records[0]!.kind, limit: 10 },
    { kind: records[records.length - 1]!.kind, limit: 10 },
  )
  return args.map((a, i) => ({
    method: 'POST',
    path: '/mcp',
    label: 'mcp',
    expect: 200,
    ...mcpCall(era, i + 1, a),
  }))
}
