/**
 * A real third-party MCP client, headless: the MCP Inspector's CLI mode against our /mcp endpoint.
 * It needs Node >= 22.19, so it runs under the node@24 package from npm (pinned version, npx cache).
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/test-server.js'

const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0'
const run = promisify(execFile)

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

async function inspectorOutput(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(
    'npx',
    ['-y', '-p', 'node@24', '-p', INSPECTOR, '--', 'mcp-inspector', '--cli', `${server.url}/mcp`, '--transport', 'http', ...args],
    { timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
  )
}

async function inspector(...args: string[]): Promise<any> {
  return JSON.parse((await inspectorOutput(...args)).stdout)
}

describe('MCP Inspector (CLI mode)', { timeout: 300_000 }, () => {
  it('lists the tools', async () => {
    const { tools } = await inspector('--method', 'tools/list')
    expect(tools.map((t: { name: string }) => t.name).sort()).toEqual(['get_catalogue', 'get_fact', 'search_facts'])
  })
  it('finds the tool schemas portable: its schema check reports nothing', async () => {
    // The check prints its findings on stderr ("Schema portability: 0 errors, 8 warnings …" before issue 15.17).
    const { stderr } = await inspectorOutput('--method', 'tools/list', '--strict')
    expect(stderr).not.toMatch(/Schema portability|(Warning|Error): tool/)
  })
  it('calls search_facts', async () => {
    const result = await inspector('--method', 'tools/call', '--tool-name', 'search_facts', '--tool-arg', 'q=alcoolémie', '--tool-arg', 'limit=2')
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent.results[0].id).toBe('fait-fab1ae2fa3566c3d')
    expect(result.content[0].text).toContain('Official rule')
  })
  it('reads a record as a resource', async () => {
    const result = await inspector('--method', 'resources/read', '--uri', 'reference-records://facts/fait-fab1ae2fa3566c3d')
    expect(JSON.parse(result.contents[0].text).title).toBe("Taux d'alcoolémie du permis probatoire")
  })
})
