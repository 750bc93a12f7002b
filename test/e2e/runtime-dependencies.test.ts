/**
 * Node 20 is supported knowingly: `npm ci` warns EBADENGINE for cookie@2.0.2 (Node ≥ 22), which only
 * Fastify's light-my-request uses, and Fastify loads light-my-request only for `app.inject()`, a test
 * helper this project does not use (its tests go through the front door: test/support/in-process.ts).
 * This test serves real requests (API and MCP) in a fresh process and checks neither module was
 * loaded; then loads light-my-request as Fastify's inject would, to show the check would see them.
 * The same check shows PostgreSQL's client is not loaded to serve a records file.
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

const SCRIPT = `
import { createRequire } from 'node:module'
const { loadConfig } = await import('./dist/config.js')
const { startServer } = await import('./dist/service/service.js')
const loaded = () => Object.keys(createRequire(import.meta.url).cache)
  .map((k) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(k)?.[1]).filter(Boolean)
const server = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' }))
await (await fetch(server.url + '/api/v1/facts?q=vitesse&po_live=1')).text()
await (await fetch(server.url + '/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })).text()
const serving = new Set(loaded())
createRequire(createRequire(import.meta.url).resolve('fastify'))('light-my-request')
const afterInject = new Set(loaded())
await server.close()
console.log(JSON.stringify({ serving: [...serving], afterInject: [...afterInject] }))
`

it('serves without loading light-my-request or cookie, which only inject() would need', async () => {
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--input-type=module', '-e', SCRIPT],
      { cwd: ROOT, timeout: 20_000 },
      (error, out) => (error ? reject(error) : resolve(out)),
    ),
  )
  const { serving, afterInject } = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    serving: string[]
    afterInject: string[]
  }
  expect(serving).toContain('fastify') // the check sees CommonJS modules loaded through the ESM entry
  expect(serving).not.toContain('light-my-request')
  expect(serving).not.toContain('cookie')
  expect(afterInject).toContain('light-my-request')
  expect(afterInject).toContain('cookie')
  // Serving a records file, PostgreSQL's client is not loaded (it is for DATABASE_URL alone).
  expect(serving).not.toContain('pg')
  expect(serving).not.toContain('pg-cursor')
})
