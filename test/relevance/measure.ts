/**
 * Measures a search against the relevance table (test/relevance/queries.ts): per category, how often
 * an accepted record comes first, how often one is on the first page, and how often nothing is found.
 * Shared by `npm run relevance` (scripts/relevance.ts) and the test that keeps the figures up.
 */
import { CATEGORIES, RELEVANCE_TABLE, type Category, type TableRow } from './queries.js'

/** The first page of a search for `q` (its ids, in order) and the total it reports. */
export type SearchFirstPage = (q: string) => { ids: readonly string[]; total: number }

export const FIRST_PAGE_SIZE = 10

type Outcome = {
  row: TableRow
  /** An accepted record is the first result. */
  first: boolean
  /** An accepted record is among the first three (what an agent reads before answering). */
  top3: boolean
  /** An accepted record is among the first `FIRST_PAGE_SIZE` results. */
  firstPage: boolean
  zero: boolean
  ids: readonly string[]
  total: number
}

export type CategoryFigures = {
  category: Category | 'all'
  queries: number
  first: number
  top3: number
  firstPage: number
  zero: number
}

export type Measurement = { outcomes: Outcome[]; figures: CategoryFigures[] }

export function measure(search: SearchFirstPage, table: readonly TableRow[] = RELEVANCE_TABLE): Measurement {
  return summarise(table.map((row) => outcome(row, search(row[1]))))
}

/** The same for a search that answers asynchronously (over a protocol, a database), one query at a time. */
export async function measureAsync(
  search: (q: string) => Promise<{ ids: readonly string[]; total: number }>,
  table: readonly TableRow[] = RELEVANCE_TABLE,
): Promise<Measurement> {
  const outcomes: Outcome[] = []
  for (const row of table) outcomes.push(outcome(row, await search(row[1])))
  return summarise(outcomes)
}

function outcome(row: TableRow, { ids, total }: { ids: readonly string[]; total: number }): Outcome {
  const page = ids.slice(0, FIRST_PAGE_SIZE)
  return {
    row,
    first: page.length > 0 && row[2].includes(page[0]!),
    top3: page.slice(0, 3).some((id) => row[2].includes(id)),
    firstPage: page.some((id) => row[2].includes(id)),
    zero: total === 0 && page.length === 0,
    ids: page,
    total,
  }
}

function summarise(outcomes: Outcome[]): Measurement {
  const sum = (category: CategoryFigures['category'], of: Outcome[]): CategoryFigures => ({
    category,
    queries: of.length,
    first: of.filter((o) => o.first).length,
    top3: of.filter((o) => o.top3).length,
    firstPage: of.filter((o) => o.firstPage).length,
    zero: of.filter((o) => o.zero).length,
  })
  const figures = CATEGORIES.map((c) =>
    sum(
      c,
      outcomes.filter((o) => o.row[0] === c),
    ),
  ).filter((f) => f.queries > 0)
  figures.push(sum('all', outcomes))
  return { outcomes, figures }
}

/**
 * Several searches' figures side by side, one row per category: each cell is right record first /
 * on the first page / zero results, in percent (docs/search.md quotes it).
 */
export function sideBySide(
  systems: readonly { name: string; figures: readonly CategoryFigures[] }[],
): string {
  const head = `| category | queries | ${systems.map((s) => s.name).join(' | ')} |`
  const rule = `|---|---:|${systems.map(() => '---:').join('|')}|`
  const rows = systems[0]!.figures.map((f, i) => {
    const name = f.category === 'all' ? '**all**' : f.category
    const cells = systems.map((s) => {
      const g = s.figures[i]!
      const cell = `${pct(g.first, g.queries)} / ${pct(g.firstPage, g.queries)} / ${pct(g.zero, g.queries)}`
      return f.category === 'all' ? `**${cell}**` : cell
    })
    return `| ${name} | ${f.queries} | ${cells.join(' | ')} |`
  })
  return [head, rule, ...rows].join('\n')
}

const pct = (n: number, of: number) =>
  of === 0 ? '0' : (Math.round((1000 * n) / of) / 10).toFixed(1).replace(/\.0$/, '')
