/**
 * The fields that only some kinds carry in the sample: a lesson's chapter, bibliography, image and
 * video; an offer's offer_data; a person's person_data; an organization's organization_data.
 * Returned in the sample file's field order, to be merged after verification_scope.
 */
import type { Fact, Kind } from '../../src/core/records/record.js'
import type { Pools } from './pools.js'
import type { Rng } from './prng.js'
import { dateBetween } from './text.js'

type Extras = Partial<
  Pick<
    Fact,
    'bibliography' | 'chapter' | 'image' | 'video' | 'organization_data' | 'person_data' | 'offer_data'
  >
>

function video(rng: Rng, pools: Pools, pageUrl: string): NonNullable<Fact['video']> {
  const slug = pageUrl.slice(pageUrl.lastIndexOf('/') + 1)
  const base = `${pageUrl.slice(0, pageUrl.indexOf('/', 8))}/videos`
  const seconds = rng.between(120, 420)
  const starts = [
    0,
    ...Array.from({ length: rng.between(2, 3) }, (_, i) => Math.round(((i + 1) * seconds) / 4)),
  ]
  return {
    title: rng.pick(pools.videoChapterTitles),
    description: 'Vidéo de la leçon, filmée en double commande et commentée par un enseignant.',
    url: `${base}/${slug}`,
    embed_url: `${base}/embed/${slug}`,
    thumbnail_url: `${base.replace('/videos', '/images/videos')}/${slug}.jpg`,
    duration: `PT${Math.floor(seconds / 60)}M${seconds % 60}S`,
    duration_seconds: seconds,
    upload_date: dateBetween(rng, '2025-06-01', '2026-11-01'),
    chapters: starts.map((t) => ({
      start_seconds: t,
      title: rng.pick(pools.videoChapterTitles),
      url: `${base}/${slug}?t=${t}`,
    })),
  }
}

/** Extras for one record of `kind`, whose page is at `url`. */
export function kindExtras(kind: Kind, url: string, rng: Rng, pools: Pools): Extras {
  const pool = pools.kinds[kind]
  const extras: Extras = {}
  if (pool.bibliography.length > 0 && rng.chance(pool.rates.bibliography)) {
    extras.bibliography = [
      ...new Set(Array.from({ length: rng.between(1, 3) }, () => rng.pick(pool.bibliography))),
    ]
  }
  if (pool.chapters.length > 0) extras.chapter = { ...rng.pick(pool.chapters) }
  if (rng.chance(pool.rates.image))
    extras.image = `${url.replace('://code-et-conduite.example/', '://code-et-conduite.example/images/')}.jpg`
  if (pools.videoChapterTitles.length > 0 && rng.chance(pool.rates.video))
    extras.video = video(rng, pools, url)
  if (kind === 'organization' && pools.organizationData.length > 0)
    extras.organization_data = structuredClone(rng.pick(pools.organizationData))
  if (kind === 'person')
    extras.person_data = { job_title: rng.pick(pool.jobTitles), affiliation: 'Code & Conduite' }
  if (kind === 'offer') {
    const price = rng.chance(0.2) ? rng.between(19, 99) : rng.between(10, 180) * 10
    extras.offer_data = {
      price,
      price_currency: 'EUR',
      valid_from: '2026-01-01',
      valid_through: '2026-12-31',
    }
  }
  return extras
}
