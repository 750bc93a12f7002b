/**
 * Measures a search against the relevance table (test/relevance/queries.ts): per category, how often
 * an accepted record comes first, how often one is on the first page, and how often nothing is found.
 * Shared by `npm run relevance` (scripts/relevance.ts) and the test that keeps the figures up.
 */
import { CATEGORIES, RELEVANCE_TABLE, type Category, type TableRow } from './queries.js'

/** The first page of a search for `q` (its ids, in order) and the total it reports. */
export type SearchFirstPage = (q: string) => { ids: readonly string[]; total: number }

export const FIRST_PAGE_SIZE = 10

export type Outcome = {
  row: TableRow
  /** An accepted record is the first result. */
  first: boolean
  /** An accepted record is among the first `FIRST_PAGE_SIZE` results. */
  firstPage: boolean
  zero: boolean
  ids: readonly string[]
  total: number
}

export type CategoryFigures = { category: Category | 'all'; queries: number; first: number; firstPage: number; zero: number }

export type Measurement = { outcomes: Outcome[]; figures: CategoryFigures[] }

export function measure(search: SearchFirstPage, table: readonly TableRow[] = RELEVANCE_TABLE): Measurement {
  const outcomes = table.map((row): Outcome => {
    const { ids, total } = search(row[1])
    const page = ids.slice(0, FIRST_PAGE_SIZE)
    return {
      row,
      first: page.length > 0 && row[2].includes(page[0]!),
      firstPage: page.some((id) => row[2].includes(id)),
      zero: total === 0,
      ids: page,
      total,
    }
  })
  const sum = (category: CategoryFigures['category'], of: Outcome[]): CategoryFigures => ({
    category,
    queries: of.length,
    first: of.filter((o) => o.first).length,
    firstPage: of.filter((o) => o.firstPage).length,
    zero: of.filter((o) => o.zero).length,
  })
  const figures = CATEGORIES.map((c) => sum(c, outcomes.filter((o) => o.row[0] === c)))
  figures.push(sum('all', outcomes))
  return { outcomes, figures }
}

const percent = (n: number, of: number) => `${of === 0 ? 0 : Math.round((100 * n) / of)} %`

/** The figures as a Markdown table (docs/search.md quotes it). */
export function figuresTable(figures: readonly CategoryFigures[]): string {
  const lines = [
    '| category | queries | right record first | on the first page | zero results |',
    '|---|---:|---:|---:|---:|',
  ]
  for (const f of figures) {
    const name = f.category === 'all' ? '**all**' : f.category
    lines.push(
      `| ${name} | ${f.queries} | ${f.first} (${percent(f.first, f.queries)}) | ${f.firstPage} (${percent(f.firstPage, f.queries)}) | ${f.zero} (${percent(f.zero, f.queries)}) |`,
    )
  }
  return lines.join('\n')
}
