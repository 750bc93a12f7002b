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
    [
      '-y',
      '-p',
      'node@24',
      '-p',
      INSPECTOR,
      '--',
      'mcp-inspector',
      '--cli',
      `${server.url}/mcp`,
      '--transport',
      'http',
      ...args,
    ],
    { timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
  )
}

async function inspector(...args: string[]): Promise<any> {
  return JSON.parse((await inspectorOutput(...args)).stdout)
}

const FACT_ID = 'fait-fab1ae2fa3566c3d'

describe('MCP Inspector (CLI mode)', { timeout: 300_000 }, () => {
  it('lists the tools', async () => {
    const { tools } = await inspector('--method', 'tools/list')
    expect(tools.map((t: { name: string }) => t.name).sort()).toEqual([
      'fetch',
      'get_catalogue',
      'get_fact',
      'search',
      'search_facts',
    ])
  })
  it('finds the tool schemas portable: its schema check reports nothing', async () => {
    // The check prints its findings on stderr ("Schema portability: 0 errors, 8 warnings …" before issue 15.17).
    const { stderr } = await inspectorOutput('--method', 'tools/list', '--strict')
    expect(stderr).not.toMatch(/Schema portability|(Warning|Error): tool/)
  })
  it('calls every tool', async () => {
    const search = await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'search_facts',
      '--tool-arg',
      'q=alcoolémie',
      '--tool-arg',
      'limit=2',
    )
    expect(search.isError).toBeFalsy()
    expect(search.structuredContent.results[0].id).toBe(FACT_ID)
    expect(search.content[0].text).toContain('Status: règle officielle')
    const record = await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'get_fact',
      '--tool-arg',
      `id=${FACT_ID}`,
    )
    expect(record.structuredContent.id).toBe(FACT_ID)
    const catalogue = await inspector('--method', 'tools/call', '--tool-name', 'get_catalogue')
    expect(catalogue.structuredContent.records.total).toBe(13)
    const found = await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'search',
      '--tool-arg',
      'query=alcoolémie permis probatoire',
    )
    expect(JSON.parse(found.content[0].text).results[0].id).toBe(FACT_ID)
    const fetched = await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'fetch',
      '--tool-arg',
      `id=${FACT_ID}`,
    )
    expect(JSON.parse(fetched.content[0].text).metadata.status).toBe('official_rule')
  })
  it('lists and reads the resources: the guide, the catalogue, a record', async () => {
    const { resources } = await inspector('--method', 'resources/list')
    expect(resources.slice(0, 2).map((r: { uri: string }) => r.uri)).toEqual([
      'reference-records://guide',
      'reference-records://catalogue',
    ])
    const { resourceTemplates } = await inspector('--method', 'resources/templates/list')
    expect(resourceTemplates[0].uriTemplate).toBe('reference-records://facts/{id}')
    const guide = await inspector('--method', 'resources/read', '--uri', 'reference-records://guide')
    expect(guide.contents[0].text).toContain('# Reference records: a guide for assistants')
    const catalogue = await inspector('--method', 'resources/read', '--uri', 'reference-records://catalogue')
    expect(JSON.parse(catalogue.contents[0].text).records.total).toBe(13)
    const result = await inspector(
      '--method',
      'resources/read',
      '--uri',
      `reference-records://facts/${FACT_ID}`,
    )
    expect(JSON.parse(result.contents[0].text).title).toBe("Taux d'alcoolémie du permis probatoire")
  })
  it('lists and gets the prompts', async () => {
    const { prompts } = await inspector('--method', 'prompts/list')
    expect(prompts.map((p: { name: string }) => p.name).sort()).toEqual([
      'answer_road_question',
      'explain_rule_for_learner',
    ])
    const answer = await inspector(
      '--method',
      'prompts/get',
      '--prompt-name',
      'answer_road_question',
      '--prompt-args',
      'question=Peut-on téléphoner au volant ?',
    )
    expect(answer.messages[0].content.text).toContain('Peut-on téléphoner au volant ?')
    const explain = await inspector(
      '--method',
      'prompts/get',
      '--prompt-name',
      'explain_rule_for_learner',
      '--prompt-args',
      `rule=${FACT_ID}`,
    )
    expect(explain.messages[0].content.text).toContain(FACT_ID)
  })
})
