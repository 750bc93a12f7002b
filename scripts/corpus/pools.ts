/**
 * Word and sentence pools, per kind, read from the sample corpus: the generator only recombines what
 * the sample says, so generated records keep its vocabulary, its accents and elisions, and the
 * lengths and optional fields of each kind. Built once, in file order, so the same sample always gives
 * the same pools.
 */
import { KINDS, type Fact, type Kind } from '../../src/core/records/record.js'

type Source = Fact['sources'][number]

/** What the generator draws from for one kind; rates are the share of sample records having the field. */
export type KindPool = {
  /** Number of sample records of this kind: the kind's weight in the generated mix. */
  weight: number
  titleHeads: string[]
  titleTails: string[]
  sentences: string[]
  /** Observed (paragraphs per text) and (sentences per paragraph), sampled as they are. */
  paragraphCounts: number[]
  sentenceCounts: number[]
  descriptions: string[]
  sourceSets: Source[][]
  bibliography: string[]
  scopes: string[]
  regionSets: string[][]
  evidenceKinds: (Fact['evidence_kind'] | undefined)[]
  jobTitles: string[]
  chapters: NonNullable<Fact['chapter']>[]
  rates: {
    description: number
    verified: number
    effective: number
    modified: number
    image: number
    video: number
    bibliography: number
    related: number
  }
}

export type Pools = {
  kinds: Readonly<Record<Kind, KindPool>>
  /** Kinds with a positive weight, and their cumulative weights, for weighted picking. */
  weightedKinds: { kind: Kind; upTo: number }[]
  totalWeight: number
  videoChapterTitles: string[]
  relatedTexts: string[]
  organizationData: NonNullable<Fact['organization_data']>[]
}

// Sentence ends: ".", "!" or "?" (possibly before a closing quote), then a space and a capital or a quote.
const SENTENCE_END = /(?<=[.!?»])\s+(?=[A-ZÀÂÄÉÈÊËÎÏÔÖÙÛÜÇŒ«"0-9])/u
/** Below this many sentences a kind borrows the whole sample's sentences, so small kinds are not one record on repeat. */
const MIN_OWN_SENTENCES = 40

function splitSentences(paragraph: string): string[] {
  return paragraph
    .split(SENTENCE_END)
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
}

const share = (records: readonly Fact[], has: (r: Fact) => boolean) =>
  records.length === 0 ? 0 : records.filter(has).length / records.length

function kindPool(records: readonly Fact[], all: readonly Fact[]): KindPool {
  const own = records.length > 0 ? records : all
  const paragraphs = own.map((r) => r.text.split('\n').filter((p) => p.trim() !== ''))
  const sentences = paragraphs.flat().flatMap(splitSentences)
  const allSentences = all.flatMap((r) => r.text.split('\n').flatMap(splitSentences))
  const [heads, tails] = [
    own.map((r) => r.title.split(' : ')[0]!),
    own.flatMap((r) => r.title.split(' : ').slice(1)),
  ]
  return {
    weight: records.length,
    titleHeads: heads,
    titleTails: tails.length > 0 ? tails : all.flatMap((r) => r.title.split(' : ').slice(1)),
    sentences: sentences.length >= MIN_OWN_SENTENCES ? sentences : [...sentences, ...allSentences],
    paragraphCounts: paragraphs.map((p) => p.length),
    sentenceCounts: paragraphs.flat().map((p) => splitSentences(p).length),
    descriptions: own.flatMap((r) => (r.description ? [r.description] : [])),
    sourceSets: own.map((r) => r.sources),
    bibliography: own.flatMap((r) => r.bibliography ?? []),
    scopes: own.flatMap((r) => (r.verification_scope ? [r.verification_scope] : [])),
    regionSets: own.map((r) => r.regions),
    evidenceKinds: own.map((r) => r.evidence_kind),
    jobTitles: own.flatMap((r) => (r.person_data?.job_title ? [r.person_data.job_title] : [])),
    chapters: own.flatMap((r) => (r.chapter ? [r.chapter] : [])),
    rates: {
      description: share(own, (r) => r.description !== undefined),
      verified: share(own, (r) => r.verified_at !== undefined),
      effective: share(own, (r) => r.effective_from !== undefined),
      modified: share(own, (r) => r.modified_at !== undefined),
      image: share(own, (r) => r.image !== undefined),
      video: share(own, (r) => r.video !== undefined),
      bibliography: share(own, (r) => (r.bibliography?.length ?? 0) > 0),
      related: share(own, (r) => (r.related?.length ?? 0) > 0),
    },
  }
}

/** Builds the pools from validated sample records (at least one). */
export function buildPools(sample: readonly Fact[]): Pools {
  if (sample.length === 0) throw new Error('corpus: the sample has no records to learn from')
  const kinds = Object.fromEntries(
    KINDS.map((k) => [
      k,
      kindPool(
        sample.filter((r) => r.kind === k),
        sample,
      ),
    ]),
  ) as Record<Kind, KindPool>
  let upTo = 0
  const weightedKinds = KINDS.filter((k) => kinds[k].weight > 0).map((kind) => ({
    kind,
    upTo: (upTo += kinds[kind].weight),
  }))
  return {
    kinds,
    weightedKinds,
    totalWeight: upTo,
    videoChapterTitles: sample.flatMap((r) => r.video?.chapters?.map((c) => c.title) ?? []),
    relatedTexts: sample.flatMap((r) => r.related?.map((l) => l.text) ?? []),
    organizationData: sample.flatMap((r) => (r.organization_data ? [r.organization_data] : [])),
  }
}
