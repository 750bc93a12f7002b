/**
 * Composes one generated record from the pools: a title made of two sample title halves, a text of
 * sample sentences in sample-like paragraphs, and the optional fields each kind carries in the sample.
 * Pure: the record depends only on its number, the seed's streams and the pools.
 */
import type { Fact, Kind } from '../../src/core/records/record.js'
import type { KindPool, Pools } from './pools.js'
import type { Rng } from './prng.js'
import { dateBetween, dateTimeBetween, slugify } from './text.js'
import { kindExtras } from './extras.js'

const SITE = 'https://code-et-conduite.example'
const PATHS: Record<Kind, string> = {
  fact: '/regles',
  expertise: '/expertise',
  organization: '/a-propos/ecole',
  offer: '/offres',
  person: '/equipe',
  article: '/blog',
  lesson: '/cours',
  page: '/pages',
  tool: '/outils',
}

/** A link to an earlier generated record, kept in a short ring so `related` never needs the whole corpus. */
export type RecentLink = { title: string; url: string }

export function pickKind(rng: Rng, pools: Pools): Kind {
  const x = rng.next() * pools.totalWeight
  return (pools.weightedKinds.find((w) => x < w.upTo) ?? pools.weightedKinds.at(-1)!).kind
}

function title(rng: Rng, pool: KindPool): string {
  const head = rng.pick(pool.titleHeads)
  return pool.titleTails.length > 0 && rng.chance(0.7) ? `${head} : ${rng.pick(pool.titleTails)}` : head
}

function text(rng: Rng, pool: KindPool): string {
  const paragraphs: string[] = []
  for (let p = rng.pick(pool.paragraphCounts); p > 0; p--) {
    const sentences: string[] = []
    for (let s = rng.pick(pool.sentenceCounts); s > 0; s--) sentences.push(rng.pick(pool.sentences))
    paragraphs.push(sentences.join(' '))
  }
  return paragraphs.join('\n')
}

/** Record number `n` (its id is given), in the field order of the sample file. */
export function composeRecord(
  n: number,
  id: string,
  kind: Kind,
  rng: Rng,
  pools: Pools,
  recent: readonly RecentLink[],
): Fact {
  const pool = pools.kinds[kind]
  const t = title(rng, pool)
  const record: Record<string, unknown> = { id, kind, title: t, text: text(rng, pool) }
  if (pool.descriptions.length > 0 && rng.chance(pool.rates.description))
    record.description = rng.pick(pool.descriptions)
  record.url = `${SITE}${PATHS[kind]}/${slugify(t)}-${n.toString(36)}`
  record.regions = [...rng.pick(pool.regionSets)]
  const verified = pool.scopes.length > 0 && rng.chance(pool.rates.verified)
  if (verified) record.verified_at = dateBetween(rng, '2025-06-01', '2026-11-20')
  if (rng.chance(pool.rates.effective)) record.effective_from = dateBetween(rng, '2004-01-01', '2026-01-01')
  if (rng.chance(pool.rates.modified)) record.modified_at = dateTimeBetween(rng, '2025-06-01', '2026-11-20')
  const evidence = rng.pick(pool.evidenceKinds)
  if (evidence !== undefined) record.evidence_kind = evidence
  if (verified) record.verification_scope = rng.pick(pool.scopes)
  Object.assign(record, kindExtras(kind, record.url as string, rng, pools))
  record.sources = rng.pick(pool.sourceSets).map((s) => ({ ...s }))
  if (recent.length > 0 && pools.relatedTexts.length > 0 && rng.chance(pool.rates.related)) {
    const links = new Set(Array.from({ length: rng.between(1, 2) }, () => rng.pick(recent)))
    record.related = [...links].map((l) => ({
      title: l.title,
      url: l.url,
      text: rng.pick(pools.relatedTexts),
    }))
  }
  return record as Fact
}
