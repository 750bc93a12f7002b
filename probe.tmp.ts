import { startTestServer } from './test/support/test-server.ts'
const s = await startTestServer()
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': {name:'x',version:'1'}, 'io.modelcontextprotocol/clientCapabilities': {} }
const post = async (method: string, params: any, era: string) => {
  const headers: Record<string,string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': era === '2025' ? '2025-11-25' : '2026-07-28' }
  if (era === '2026') headers['mcp-method'] = method
  const p = era === '2026' && typeof params === 'object' && params !== null && !Array.isArray(params) ? { ...params, _meta: META } : params
  const res = await fetch(s.url + '/mcp', { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(p === undefined ? {} : { params: p }) }) })
  return res.status + ' ' + (await res.text()).replace(/\s+/g,' ').slice(0, 300)
}
const cases: [string, any][] = JSON.parse(process.argv[2])
for (const era of ['2025', '2026']) for (const [method, params] of cases) console.log(era, method, JSON.stringify(params), '\n   ', await post(method, params, era))
await s.close()
