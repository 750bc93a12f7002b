/**
 * Prints how the search does on the relevance table (test/relevance/queries.ts) over the bundled
 * sample: per category, right record first, on the first page, zero results. docs/search.md quotes it.
 *
 * @example
 *   npm run relevance                 # the figures, as a Markdown table
 *   npm run relevance -- --misses     # also each query whose first result is not accepted
 *   npm run relevance -- --json       # the figures and every outcome, as JSON
 */
import { parseArgs } from 'node:util'
import { BUNDLED_RECORDS_FILE } from '../src/config.js'
import { FileRecordSource } from '../src/core/records/file-source.js'
import { RecordIndex, toIndexQuery } from '../src/core/search/record-index.js'
import { FIRST_PAGE_SIZE, figuresTable, measure } from '../test/relevance/measure.js'

const { values } = parseArgs({ options: { misses: { type: 'boolean' }, json: { type: 'boolean' } }, strict: true })

const index = RecordIndex.build(await new FileRecordSource(BUNDLED_RECORDS_FILE).load())
const titles = new Map(index.listed(0, index.size).map((e) => [e.record.id, e.record.title]))
const result = measure((q) => {
  const page = index.search(toIndexQuery({ q, limit: FIRST_PAGE_SIZE, offset: 0 }))
  return { ids: page.results.map((e) => e.record.id), total: page.total }
})

if (values.json) {
  console.log(JSON.stringify(result, null, 2))
} else {
  console.log(figuresTable(result.figures))
  if (values.misses) {
    for (const o of result.outcomes.filter((o) => !o.first)) {
      const [category, q, accepted] = o.row
      const rank = o.ids.findIndex((id) => accepted.includes(id))
      console.log(`\n[${category}] ${q} — total ${o.total}, accepted at ${rank < 0 ? 'none' : `#${rank + 1}`}`)
      for (const id of o.ids.slice(0, 3)) console.log(`   ${accepted.includes(id) ? '✓' : ' '} ${id} ${titles.get(id)}`)
      for (const id of accepted.filter((id) => !o.ids.slice(0, 3).includes(id))) console.log(`   want ${id} ${titles.get(id)}`)
    }
  }
}
