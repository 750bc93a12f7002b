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
