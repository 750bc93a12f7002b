/**
 * Builds the request mix from what a running service serves, so the same code fits the 64-record
 * sample and the 100 000-record corpus: real title words, real kinds, real ids; ETags are fetched
 * from each target before its run.
 */
import type { MixRequest, PlannedRequest } from './mix-file.js'

type Listed = { id: string; kind: string; title: string }

/** Folds like the service does (accents, case), so word frequencies count "Vitesse" and "vitesse" once. */
const fold = (w: string) =>
  w
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()

/**
 * Records from one or two listing pages per kind (the catalogue gives the counts): every kind is
 * represented even when a listing, ordered by kind, would start with thousands of one kind.
 */
async function sampleRecords(base: string): Promise<Listed[]> {
  const catalogue = await getJson<{ records: { by_kind: Record<string, number> } }>(
    `${base}/api/v1/?po_live=1`,
  )
  const out = new Map<string, Listed>()
  for (const [kind, count] of Object.entries(catalogue.records.by_kind)) {
    if (count === 0) continue
    // A second page from the middle of the kind, within the API's offset bound of 10 000.
    const offsets = count > 50 ? [0, Math.floor(Math.min(count - 50, 10_000) / 2)] : [0]
    for (const offset of offsets) {
      const page = await getJson<{ results: Listed[] }>(
        `${base}/api/v1/facts?kind=${kind}&limit=50&offset=${offset}&po_live=1`,
      )
      for (const r of page.results) out.set(r.id, { id: r.id, kind: r.kind, title: r.title })
    }
  }
  return [...out.values()]
}

/**
 * Title words found in more than one sampled record (long enough not to be stop words), most frequent
 * first: what people search for, with several hits each.
 */
export function frequentWords(titles: readonly string[], count: number): string[] {
  const df = new Map<string, { n: number; word: string }>()
  for (const title of titles) {
    // One count per title and folded word: "Arrêt … ARRET" is one occurrence.
    const words = new Map(
      title
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((w) => [...w].length >= 5)
        .reverse()
        .map((w) => [fold(w), w]),
    )
    for (const [key, w] of words) {
      const e = df.get(key) ?? { n: 0, word: w }
      e.n++
      df.set(key, e)
    }
  }
  const ranked = [...df.values()]
    .filter((e) => e.n >= 2)
    .sort((a, b) => b.n - a.n || (a.word < b.word ? -1 : 1))
  return ranked.slice(0, count).map((e) => e.word)
}

/** Every n-th element, so picks spread over the list instead of clustering at its start. */
const spread = <T>(list: readonly T[], n: number): T[] =>
  Array.from(
    { length: Math.min(n, list.length) },
    (_, i) => list[Math.floor((i * list.length) / Math.min(n, list.length))]!,
  )

/** What the mixes are built from: sampled records, their frequent title words and kinds. */
export type CorpusSample = { records: Listed[]; words: string[]; kinds: string[] }

export async function sampleCorpus(base: string): Promise<CorpusSample> {
  const records = await sampleRecords(base)
  if (records.length < 13) throw new Error(`bench: only ${records.length} records listed at ${base}; need 13`)
  const words = frequentWords(
    records.map((r) => r.title),
    12,
  )
  if (words.length < 6) throw new Error('bench: too few repeated title words to build searches')
  return { records, words, kinds: [...new Set(records.map((r) => r.kind))] }
}

/**
 * 40 requests: 19 text searches (some with kind, region, two words or paging), 4 listings, 10 record
 * reads, 5 re-reads expecting 304, 2 without po_live (307).
 */
export function planApiMix({ records, words, kinds }: CorpusSample): PlannedRequest[] {
  const w = (i: number) => encodeURIComponent(words[i % words.length]!)
  const kindOf = (i: number) =>
    records.find((r) => fold(r.title).includes(fold(words[i % words.length]!)))!.kind
  const ids = spread(records, 13).map((r) => r.id)
  const get = (path: string, label: PlannedRequest['label'], expect = 200): PlannedRequest => ({
    method: 'GET',
    path,
    label,
    expect,
  })
  const F = '/api/v1/facts'
  return [
    ...words.map((_, i) => get(`${F}?q=${w(i)}&po_live=1`, 'search')),
    ...[0, 1, 2].map((i) => get(`${F}?q=${w(i)}&kind=${kindOf(i)}&po_live=1`, 'search')),
    get(`${F}?q=${w(3)}&region=france&po_live=1`, 'search'),
    get(`${F}?q=${w(4)}&region=france&limit=20&po_live=1`, 'search'),
    get(`${F}?q=${w(0)}%20${w(1)}&po_live=1`, 'search'),
    get(`${F}?q=${w(2)}&limit=5&offset=5&po_live=1`, 'search'),
    get(`${F}?kind=${kinds[0]}&limit=20&po_live=1`, 'listing'),
    get(`${F}?kind=${kinds[kinds.length - 1]}&limit=20&offset=20&po_live=1`, 'listing'),
    get(`${F}?region=france&limit=10&offset=10&po_live=1`, 'listing'),
    get(`${F}?limit=50&offset=50&po_live=1`, 'listing'),
    ...ids.slice(0, 10).map((id) => get(`${F}/${id}?po_live=1`, 'record')),
    ...ids.slice(10, 13).map((id) => get(`${F}/${id}?po_live=1`, '304', 304)),
    get(`${F}?q=${w(0)}&po_live=1`, '304', 304),
    get(`${F}?kind=${kinds[0]}&limit=20&po_live=1`, '304', 304),
    get(`${F}?q=${w(5)}`, '307', 307),
    get(`${F}/${ids[1]}`, '307', 307),
  ]
}

/**
 * The mix as sent to one target: 304 entries get that target's current ETag; every status is checked
 * once, so a run never measures a stream of errors by mistake.
 */
export async function resolveMix(base: string, plan: readonly PlannedRequest[]): Promise<MixRequest[]> {
  const out: MixRequest[] = []
  for (const p of plan) {
    const headers: Record<string, string> = { ...p.headers }
    // fetch asks for gzip unless told otherwise, and each encoding has its own ETag: ask for what the
    // mix's requests will ask for (nothing named means identity).
    const asked = { 'Accept-Encoding': headers['Accept-Encoding'] ?? 'identity' }
    if (p.expect === 304) {
      const etag = (await fetch(base + p.path, { headers: asked })).headers.get('etag')
      if (etag === null) throw new Error(`bench: no ETag from ${base}${p.path}`)
      headers['If-None-Match'] = etag
    }
    const res = await fetch(base + p.path, {
      method: p.method,
      headers: { ...asked, ...headers },
      body: p.body,
      redirect: 'manual',
    })
    const text = await res.text()
    if (res.status !== p.expect)
      throw new Error(`bench: ${p.method} ${base}${p.path} answered ${res.status}, expected ${p.expect}`)
    // MCP answers 200 even for a failed call: look for a result that is not an error.
    if (p.label === 'mcp' && (!text.includes('"result"') || text.includes('"isError":true'))) {
      throw new Error(`bench: MCP call to ${base}${p.path} failed: ${text.slice(0, 300)}`)
    }
    out.push({ method: p.method, path: p.path, headers, ...(p.body === undefined ? {} : { body: p.body }) })
  }
  return out
}

async function getJson<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init)
  if (!res.ok) throw new Error(`bench: GET ${url} answered ${res.status}`)
  return (await res.json()) as T
}
