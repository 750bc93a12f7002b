/**
 * The bundled sample's provenance: an official source on Légifrance must take the reader to what it
 * cites. A label citing an article (or "articles X et suivants") links to that article's stable
 * address (`codes/article_lc/LEGIARTI…`), never to the root of a code. Where the article's
 * identifier is not established (docs/api.md "Reusing the records" says which and why), the link is
 * Légifrance's search by article number for exactly that number: listed here by name, never a code
 * root. Only citations of a whole part, book or title of a code may stay at the code's root.
 */
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import type { Fact } from '../../src/core/records/record.js'

const sample = JSON.parse(readFileSync(new URL('../../data/records.json', import.meta.url), 'utf8')) as {
  records: Fact[]
}
const legifrance = sample.records.flatMap((r) =>
  r.sources
    .filter((s) => s.type === 'official' && new URL(s.url).hostname === 'www.legifrance.gouv.fr')
    .map((s) => ({ ...s, record: r.id })),
)

/** The root of a whole code, in each spelling Légifrance serves it (table of contents, section or id form without a section). */
const CODE_ROOT =
  /^https:\/\/www\.legifrance\.gouv\.fr\/codes\/(?:texte_lc|section_lc|id)\/LEGITEXT\d{12}\/?(?:\d{4}-\d{2}-\d{2}\/?)?(?:[?#].*)?$/
const ARTICLE = /^https:\/\/www\.legifrance\.gouv\.fr\/codes\/article_lc\/LEGIARTI\d{12}\/?$/
/** A label that names an article: "article R413-2", "articles R414-4 et suivants", "article 434-10". */
const CITES_ARTICLE = /\barticles? (?:[LRDA]\*?)?\d/
const articleNumber = (label: string) => /\barticles? ((?:[LRDA]\*?)?\d[\d-]*)/.exec(label)?.[1]

/** Citations of a part of a code, not of an article: the code's table of contents is where they are read. */
const PARTS_OF_A_CODE = [
  'Code de la route, partie législative et partie réglementaire',
  'Code de la route, partie réglementaire, livre II (le conducteur)',
  'Code de la route, partie réglementaire, livre II, titre II (permis de conduire)',
  'Code de la route, partie réglementaire, livre IV (usage des voies)',
]
/** Articles whose Légifrance identifier is not established: reached by the search for their number. */
const ARTICLES_BY_NUMBER_SEARCH = [
  'Code des assurances, article A121-1 (clause type de réduction-majoration)',
]
const NUMBER_SEARCH = (number: string) =>
  `https://www.legifrance.gouv.fr/search/code?tab_selection=code&searchField=NUM_ARTICLE&query=${number}`

/** The official sources whose label names an article but whose link does not lead to it. */
function misdirectedArticles(sources: typeof legifrance): string[] {
  return sources
    .filter((s) => CITES_ARTICLE.test(s.label))
    .filter((s) =>
      ARTICLES_BY_NUMBER_SEARCH.includes(s.label)
        ? s.url !== NUMBER_SEARCH(articleNumber(s.label)!)
        : !ARTICLE.test(s.url),
    )
    .map((s) => `${s.record}: ${s.label} — ${s.url}`)
}

it('has official Légifrance sources to check', () => {
  expect(legifrance.length).toBeGreaterThan(200)
})

it('links every cited article to its own Légifrance page, never to the root of a code', () => {
  expect(misdirectedArticles(legifrance)).toEqual([])
})

it('fails on an article-level label whose link is the root of a code, in any of its spellings', () => {
  const at = (url: string) => [
    {
      record: 'page-a8698c4f74669bb5',
      type: 'official' as const,
      label: 'Code des assurances, article L113-2',
      url,
    },
  ]
  for (const root of [
    'https://www.legifrance.gouv.fr/codes/texte_lc/LEGITEXT000006073984/',
    'https://www.legifrance.gouv.fr/codes/section_lc/LEGITEXT000006074228/',
    'https://www.legifrance.gouv.fr/codes/id/LEGITEXT000006074228',
    'https://www.legifrance.gouv.fr/codes/texte_lc/LEGITEXT000006074228/2026-01-01/',
  ]) {
    expect(CODE_ROOT.test(root), root).toBe(true)
    expect(misdirectedArticles(at(root)), root).toHaveLength(1)
  }
  expect(
    misdirectedArticles(at('https://www.legifrance.gouv.fr/codes/article_lc/LEGIARTI000035731302/')),
  ).toEqual([])
  // The number search is accepted only for the listed article, and only for its own number.
  expect(misdirectedArticles(at(NUMBER_SEARCH('L113-2')))).toHaveLength(1)
})

it('points at a code root only for the listed citations of a part of a code', () => {
  const atRoot = [...new Set(legifrance.filter((s) => CODE_ROOT.test(s.url)).map((s) => s.label))].sort()
  expect(atRoot).toEqual([...PARTS_OF_A_CODE].sort())
})

it('gives one article one address: the same article cited twice links to the same page', () => {
  const byLabel = new Map<string, Set<string>>()
  for (const s of legifrance) byLabel.set(s.label, (byLabel.get(s.label) ?? new Set()).add(s.url))
  const ambiguous = [...byLabel].filter(([, urls]) => urls.size > 1).map(([label]) => label)
  expect(ambiguous).toEqual([])
})
