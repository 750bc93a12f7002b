import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { FactSchema, type Fact } from '../records/record.js'
import { RecordIndex, searchKey, toIndexQuery, withPreparedAnswers } from './record-index.js'
import { SnapshotBuilder } from './snapshot-builder.js'

const records = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/records.small.json', import.meta.url), 'utf8'),
) as Fact[]
const index = RecordIndex.build({ records, publishedAt: '2026-11-20T09:00:00.000Z' })
const idOf = (slug: string) => records.find((r) => r.url.endsWith(`/${slug}`))!.id
const ids = (q: string | undefined, extra: { kind?: Fact['kind']; region?: 'france' } = {}) =>
  index.search(toIndexQuery({ q, ...extra, limit: 50, offset: 0 })).results.map((e) => e.record.id)

describe('RecordIndex.search semantics', () => {
  it.each([
    ['accents ignored in the query', 'alcoolemie', ['alcoolemie-permis-probatoire']],
    ['accents ignored in the text', 'AGGLOMÉRATION', ['vitesse-agglomeration']],
    ['œ ligature matches oe', 'coeur', ['coeur-premiers-secours']],
    ['oe matches œ', 'cœur', ['coeur-premiers-secours']],
    ['ligature in a title', 'manoeuvres', ['manoeuvres-creneau']],
    ["elision in the query (l')", "l'autoroute", ['autoroute-insertion']],
    ['elision in the text (d’)', 'accélération', ['autoroute-insertion']],
    ['stop words are not required', 'la priorité à droite', ['priorite-a-droite']],
    ['a word only in a source label', 'R415', ['priorite-a-droite']],
    ['a word only in the bibliography', 'REMC', ['priorite-a-droite']],
    ['a word only in the description', 'jeunes conducteurs', ['alcoolemie-permis-probatoire']],
    ['every significant word must be present (AND)', 'priorité alcool', []],
    ['whole words only, no prefixes', 'agglo', []],
    ['unknown word', 'zzzz', []],
  ])('%s: %s', (_name, q, slugs) => {
    expect(ids(q)).toEqual(slugs.map(idOf))
  })

  it('treats a query made only of stop words as significant', () => {
    // "en" occurs in several texts; every hit must contain it as a whole word
    const hits = ids('en')
    expect(hits.length).toBeGreaterThan(0)
    for (const id of hits) expect(JSON.stringify(records.find((r) => r.id === id))).toMatch(/\b[Ee]n\b/)
  })

  it('ranks title matches above text matches', () => {
    // "vitesse" is in the title of the speed rule and only in the text of the motorway lesson
    expect(ids('vitesse')).toEqual([idOf('vitesse-agglomeration'), idOf('autoroute-insertion')])
  })

  it('combines q with kind and region filters (AND)', () => {
    expect(ids('conduite', { kind: 'offer' })).toEqual([idOf('forfait-20-heures')])
    expect(ids(undefined, { kind: 'fact' })).toHaveLength(3)
    expect(ids(undefined, { region: 'france' })).not.toContain(idOf('mentions-legales'))
    expect(ids('légales', { region: 'france' })).toEqual([])
  })

  it('lists without q by kind (spec order), then French title order, then id', () => {
    const listed = index.search(toIndexQuery({ limit: 50, offset: 0 })).results.map((e) => e.record)
    expect(listed.map((r) => r.kind)).toEqual([
      'fact',
      'fact',
      'fact',
      'expertise',
      'organization',
      'offer',
      'person',
      'article',
      'lesson',
      'lesson',
      'lesson',
      'page',
      'tool',
    ])
    const lessons = listed.filter((r) => r.kind === 'lesson').map((r) => r.title)
    expect(lessons).toEqual([
      'La priorité à droite',
      'Premiers secours : protéger, alerter, secourir',
      "S'insérer sur l'autoroute",
    ])
  })

  it('pages concatenate to the full result, without duplicates, in the same order twice', () => {
    for (const q of [undefined, 'conduite', 'en']) {
      const full = ids(q)
      const paged: string[] = []
      for (let offset = 0; offset < full.length; offset += 2) {
        const page = index.search(toIndexQuery({ q, limit: 2, offset }))
        expect(page.total).toBe(full.length)
        paged.push(...page.results.map((e) => e.record.id))
      }
      expect(paged).toEqual(full)
      expect(new Set(paged).size).toBe(paged.length)
      expect(ids(q)).toEqual(full)
    }
  })

  it('gives an empty page past the end, with the total', () => {
    const page = index.search(toIndexQuery({ limit: 10, offset: 10_000 }))
    expect(page).toEqual({ total: records.length, results: [] })
  })
})

describe('RecordIndex', () => {
  it('serialises each record once, byte-equal to JSON.stringify of its validated form', () => {
    for (const r of records)
      expect(index.get(r.id)!.bytes.toString()).toBe(JSON.stringify(FactSchema.parse(r)))
  })
  it('has a content version: equal records give equal versions, a change gives another', () => {
    expect(RecordIndex.build({ records: [...records].reverse() }).version).toBe(index.version)
    const changed = records.map((r, i) => (i === 0 ? { ...r, title: `${r.title}!` } : r))
    expect(RecordIndex.build({ records: changed }).version).not.toBe(index.version)
  })
  it('counts every kind, zeros included', () => {
    const empty = RecordIndex.build({ records: [] })
    expect(Object.values(empty.countsByKind)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0])
    expect(index.countsByKind.lesson).toBe(3)
  })
  it('gives one search key per query as given: the answer shows the words as typed', () => {
    const key = (q: string, offset = 0) => searchKey(toIndexQuery({ q, limit: 10, offset }))
    expect(key('alcoolemie')).toBe(key('alcoolemie'))
    expect(key("L'Alcoolémie")).not.toBe(key('alcoolemie'))
    expect(key('alcoolemie', 10)).not.toBe(key('alcoolemie'))
    expect(searchKey(toIndexQuery({ limit: 10, offset: 0 }))).not.toBe(key(''))
  })
})

describe('RecordIndex.idsStartingWith', () => {
  const sorted = records.map((r) => r.id).sort()
  it('lists the ids that start with what was typed, in id order, up to max', () => {
    for (const typed of [
      '',
      'f',
      'fait-',
      'fait-6',
      'expertise-',
      'p',
      'person-',
      sorted[3]!.slice(0, 9),
      sorted[5]!,
    ]) {
      // A prefix order (brand, expertise-fait, fait, …) that sorts as the strings do: one range per prefix.
      expect(index.idsStartingWith(typed, 50), typed).toEqual(sorted.filter((id) => id.startsWith(typed)))
    }
    expect(index.idsStartingWith('fait-', 2)).toEqual(
      sorted.filter((id) => id.startsWith('fait-')).slice(0, 2),
    )
  })
  it('finds nothing for text no id can start with', () => {
    for (const typed of ['fait-G', 'zzz', 'fait-0123456789abcdef0', 'FAIT-'])
      expect(index.idsStartingWith(typed, 10), typed).toEqual([])
  })
})

describe('RecordIndex: what a load and a filtered listing cost', () => {
  const listing = (extra: { kind?: Fact['kind']; region?: 'france' }) =>
    index.search(toIndexQuery({ ...extra, limit: 1000, offset: 0 })).results.map((e) => e.record)

  it('lists a kind as its range of the listing order, the same records as filtering the whole listing', () => {
    const every = listing({})
    for (const kind of ['fact', 'lesson', 'article', 'tool'] as const) {
      const ofKind = listing({ kind })
      expect(ofKind.length).toBeGreaterThan(0)
      expect(ofKind.map((r) => r.id)).toEqual(every.filter((r) => r.kind === kind).map((r) => r.id))
      expect(listing({ kind, region: 'france' }).map((r) => r.id)).toEqual(
        every.filter((r) => r.kind === kind && r.regions?.includes('France')).map((r) => r.id),
      )
    }
  })

  it('reads the kind column a few times to list a kind, not once per record', () => {
    const builder = new SnapshotBuilder('records')
    records.forEach((record, i) => builder.add(record, `record ${i}`))
    const data = builder.finish({ publishedAt: '2026-11-20T09:00:00.000Z' })
    const { column: kinds, reads } = countingReads(data.kinds)
    const counted = new RecordIndex({ ...data, kinds })
    const page = counted.search(toIndexQuery({ kind: 'article', limit: 5, offset: 0 }))
    expect(page.total).toBe(records.filter((r) => r.kind === 'article').length)
    // Two binary searches over the listing order: about 2 log2(n) reads.
    expect(reads()).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(records.length + 1)) + 2)
    expect(reads()).toBeLessThan(records.length)
  })

  it('lists the region, and a kind in it, from the listing made with the snapshot: no pass over the region column', () => {
    const builder = new SnapshotBuilder('records')
    records.forEach((record, i) => builder.add(record, `record ${i}`))
    const prepared = withPreparedAnswers(builder.finish({ publishedAt: '2026-11-20T09:00:00.000Z' }))
    const { column: france, reads } = countingReads(prepared.france)
    const counted = new RecordIndex({ ...prepared, france })
    const plain = new RecordIndex({ ...prepared, franceOrder: undefined })
    for (const kind of [undefined, 'fact', 'article'] as const) {
      const query = toIndexQuery({ kind, region: 'france', limit: 50, offset: 0 })
      const ids = (index: RecordIndex) => index.search(query).results.map((r) => r.record.id)
      expect(ids(counted), kind).toEqual(ids(plain))
      expect(counted.search(query).total, kind).toBe(plain.search(query).total)
    }
    expect(reads()).toBe(0)
  })

  it('leaves the snapshot data it is given as it was', () => {
    const builder = new SnapshotBuilder('records')
    records.forEach((record, i) => builder.add(record, `record ${i}`))
    const data = builder.finish({ publishedAt: '2026-11-20T09:00:00.000Z' })
    const [arenas, recordArena, inherited] = [data.arenas, data.recordArena.slice(), data.inherited]
    withPreparedAnswers(data)
    new RecordIndex(data)
    expect(data.arenas).toBe(arenas)
    expect(data.recordArena).toEqual(recordArena)
    expect(data.inherited).toBe(inherited)
  })
})

/** `column`, counting the items read from it. */
function countingReads<T extends object>(column: T): { column: T; reads: () => number } {
  let reads = 0
  const counted = new Proxy(column, {
    get: (target, key) => {
      if (typeof key === 'string' && /^[0-9]+$/.test(key)) reads++
      return Reflect.get(target, key) as unknown
    },
  })
  return { column: counted, reads: () => reads }
}
