/** docs/client.md says what the package's root entry exports (and that the client is not among them): it stays true to src/index.ts. */
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'

const readme = readFileSync(new URL('../../docs/client.md', import.meta.url), 'utf8')
const entry = readFileSync(new URL('../../src/index.ts', import.meta.url), 'utf8')

/** Every name `src/index.ts` exports, values and types alike (it only re-exports). */
const exported = [...entry.matchAll(/^export \{([^}]*)\} from/gm)].flatMap((m) =>
  m[1]!
    .split(',')
    .map((name) => name.trim().replace(/^type /, ''))
    .filter((name) => name !== ''),
)

it('names every export of the root entry in docs/client.md', () => {
  expect(exported.length).toBeGreaterThanOrEqual(10)
  const section = readme.slice(readme.indexOf("The package's root entry (`reference-records`)"))
  for (const name of exported) expect(section, name).toContain(`\`${name}\``)
})

it('imports the client from its package or the /client entry in every example of docs/client.md, never the root', () => {
  expect(exported).not.toContain('RecordsClient')
  const imports = [...readme.matchAll(/^import .* from '(reference-records[^']*)'/gm)].map((m) => m[1])
  expect(imports.length).toBeGreaterThanOrEqual(1)
  for (const from of imports) expect(['reference-records-client', 'reference-records/client']).toContain(from)
})
