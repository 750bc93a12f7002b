/**
 * The bundled sample's provenance: an official source on Légifrance must take the reader to what it
 * cites. A label citing an article (or "articles X et suivants") links to that article's stable
 * address (`codes/article_lc/LEGIARTI…`), never to the root of a code. The few citations of a whole
 * book or title of a code, and the two articles whose identifier could not be established from a
 * verifiable source, are listed here by name: any other code root fails.
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

const CODE_ROOT = /^https:\/\/www\.legifrance\.gouv\.fr\/codes\/texte_lc\/LEGITEXT\d{12}\/?$/
const ARTICLE = /^https:\/\/www\.legifrance\.gouv\.fr\/codes\/article_lc\/LEGIARTI\d{12}\/?$/

/** Citations of a part of a code, not of an article: the code's table of contents is where they are read. */
const PARTS_OF_A_CODE = [
  'Code de la route, partie législative et partie réglementaire',
  'Code de la route, partie réglementaire, livre II (le conducteur)',
  'Code de la route, partie réglementaire, livre II, titre II (permis de conduire)',
  'Code de la route, partie réglementaire, livre IV (usage des voies)',
]
/** Articles whose Légifrance identifier is not established yet (CHANGELOG.md says so): known gaps, not a pattern. */
const ARTICLES_WITHOUT_IDENTIFIER = [
  'Code des assurances, article L113-2',
  'Code des assurances, article A121-1 (clause type de réduction-majoration)',
]

it('has official Légifrance sources to check', () => {
  expect(legifrance.length).toBeGreaterThan(200)
})

it('links every cited article to its own Légifrance page, not to the root of a code', () => {
  const wrong = legifrance
    .filter((s) => /\barticles? [LRA]?\d/.test(s.label) && !ARTICLES_WITHOUT_IDENTIFIER.includes(s.label))
    .filter((s) => !ARTICLE.test(s.url))
    .map((s) => `${s.record}: ${s.label} — ${s.url}`)
  expect(wrong).toEqual([])
})

it('points at a code root only for the listed citations of a part of a code and the listed gaps', () => {
  const atRoot = [...new Set(legifrance.filter((s) => CODE_ROOT.test(s.url)).map((s) => s.label))].sort()
  expect(atRoot).toEqual([...PARTS_OF_A_CODE, ...ARTICLES_WITHOUT_IDENTIFIER].sort())
})

it('gives one article one address: the same article cited twice links to the same page', () => {
  const byLabel = new Map<string, Set<string>>()
  for (const s of legifrance) byLabel.set(s.label, (byLabel.get(s.label) ?? new Set()).add(s.url))
  const ambiguous = [...byLabel].filter(([, urls]) => urls.size > 1).map(([label]) => label)
  expect(ambiguous).toEqual([])
})
