/**
 * Prints how the search does on the relevance tables (test/relevance/queries.ts, and the held-out
 * table apart) over the bundled sample, beside the peers measured in the same run on the same
 * records: per category, how often an accepted record comes first, is on the first page (10
 * results), and how often nothing is found. docs/search.md quotes it.
 *
 * Systems: this service as the REST API answers (`match=all`, the default, and `match=best`), the MCP
 * tool `search_facts` over a real MCP client (it defaults to best match), MiniSearch (OR, prefix,
 * fuzzy, accents folded), Orama (OR, its French stemmer), and PostgreSQL's French full-text search (OR and AND) when a server
 * answers at TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test, as the tests).
 *
 * @example
 *   npm run relevance                          # the tables, as Markdown
 *   npm run relevance -- --misses best         # also each table query whose first result is not accepted, for one system
 *   npm run relevance -- --json                # the figures and every outcome, as JSON
 */
import { parseArgs } from 'node:util'
import { BUNDLED_RECORDS_FILE } from '../src/config.js'
import { FileRecordSource } from '../src/core/records/file-source.js'
import { RecordIndex } from '../src/core/search/record-index.js'
import { HELD_OUT_TABLE } from '../test/relevance/held-out.js'
import { measureAsync, sideBySide, type Measurement } from '../test/relevance/measure.js'
import { RELEVANCE_TABLE, type TableRow } from '../test/relevance/queries.js'
import {
  mcpToolSystem,
  miniSearchPeer,
  oramaPeer,
  postgresPeers,
  restSearch,
  systemOf,
  type System,
} from '../test/relevance/systems.js'

const { values } = parseArgs({
  options: { misses: { type: 'string' }, json: { type: 'boolean' } },
  strict: true,
})

const batch = await new FileRecordSource(BUNDLED_RECORDS_FILE).load()
const index = RecordIndex.build(batch)
const postgres = await postgresPeers(
  batch.records,
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
)
const systems: System[] = [
  systemOf('REST match=all', restSearch(index, 'all')),
  systemOf('REST match=best', restSearch(index, 'best')),
  await mcpToolSystem(index),
  systemOf('MiniSearch OR', miniSearchPeer(batch.records)),
  systemOf('Orama French', await oramaPeer(batch.records)),
  ...(postgres ?? []),
]

async function measureAll(table: readonly TableRow[]): Promise<{ name: string; measurement: Measurement }[]> {
  const out = []
  for (const system of systems)
    out.push({ name: system.name, measurement: await measureAsync(system.search, table) })
  return out
}

const tables = { table: await measureAll(RELEVANCE_TABLE), heldOut: await measureAll(HELD_OUT_TABLE) }
for (const system of systems) await system.close?.()

if (values.json) {
  console.log(JSON.stringify(tables, null, 2))
} else {
  const print = (title: string, measured: { name: string; measurement: Measurement }[], rows: number) => {
    console.log(`\n## ${title} (${rows} queries): right record first / on the first page / zero results, %\n`)
    console.log(sideBySide(measured.map(({ name, measurement }) => ({ name, figures: measurement.figures }))))
    const agents = measured.map(({ name, measurement }) => {
      const agent = measurement.outcomes.filter((o) => o.row[0] === 'agent')
      return `${name} ${agent.filter((o) => o.top3).length}/${agent.length}`
    })
    console.log(`\nAgent sentences with an accepted record in the first 3: ${agents.join(' · ')}`)
  }
  print('The relevance table', tables.table, RELEVANCE_TABLE.length)
  print('The held-out table', tables.heldOut, HELD_OUT_TABLE.length)
  if (postgres === undefined) console.log('\n(PostgreSQL: no server answered, its columns are left out.)')
  if (values.misses !== undefined) {
    const wanted = tables.table.find(({ name }) => name.toLowerCase().includes(values.misses!.toLowerCase()))
    if (wanted === undefined)
      throw new Error(
        `--misses: no system named like "${values.misses}" (${systems.map((s) => s.name).join(', ')})`,
      )
    const title = (id: string) => index.get(id)?.record.title ?? id
    console.log(`\n## Misses of ${wanted.name}`)
    for (const o of wanted.measurement.outcomes.filter((x) => !x.first)) {
      const [category, q, accepted] = o.row
      const rank = o.ids.findIndex((id) => accepted.includes(id))
      console.log(
        `\n[${category}] ${q} — total ${o.total}, accepted at ${rank < 0 ? 'none' : `#${rank + 1}`}`,
      )
      for (const id of o.ids.slice(0, 3))
        console.log(`   ${accepted.includes(id) ? '✓' : ' '} ${id} ${title(id)}`)
      for (const id of accepted.filter((id) => !o.ids.slice(0, 3).includes(id)))
        console.log(`   want ${id} ${title(id)}`)
    }
  }
}
