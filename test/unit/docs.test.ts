/** The docs stay true to the code: every setting is in the README table, with its flag. */
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { SETTING_NAMES, flagName } from '../../src/config.js'

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

it('lists every setting in the README configuration table, with its flag', () => {
  for (const name of SETTING_NAMES) {
    expect(readme, name).toMatch(new RegExp(`^\\| \`${name}\` \\| \`--${flagName(name)}\` \\|`, 'm'))
  }
  const rows = readme.match(/^\| `[A-Z_]+` \| `--/gm) ?? []
  expect(rows).toHaveLength(SETTING_NAMES.length) // and nothing the code does not read
})

it('shows the two set-up commands', () => {
  expect(readme).toContain('npm ci && npm start')
  expect(readme).toContain('npm ci && npm test')
})

const apiGuide = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8')

it('shows how to send accents (curl -G --data-urlencode) and how to follow the 307 (curl -L)', () => {
  for (const [name, text] of [
    ['README.md', readme],
    ['docs/api.md', apiGuide],
  ] as const) {
    expect(text, name).toMatch(/curl -s?G --data-urlencode 'q=priorité/)
    expect(text, name).toMatch(/curl -s?L '/)
    expect(text, name).toMatch(/raw UTF-8/i)
  }
})

it('says what the MCP server lists and what a session costs, as the code does', async () => {
  const { RESOURCE_PAGE_SIZE } = await import('../../src/mcp/server.js')
  expect(apiGuide).toContain(`each page lists ${RESOURCE_PAGE_SIZE} records`)
  expect(apiGuide).not.toMatch(/up to 1 000/)
  expect(apiGuide).not.toMatch(/Every HTTP request to `\/mcp` counts/)
  expect(apiGuide).toMatch(/"id":7,"error"/)
})
