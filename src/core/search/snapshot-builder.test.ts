import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { digested } from '../../../test/support/digested.js'
import type { Fact } from '../records/record.js'
import { RecordIndex, withPreparedAnswers } from './record-index.js'
import { SnapshotBuilder, partTransferList, searchedText, type SnapshotPart } from './snapshot-builder.js'
import { tokenize } from './tokenize.js'
import { BUILT_COLUMNS, COLUMNS, SHARED_COLUMNS, SNAPSHOT_COLUMNS } from './snapshot-columns.js'
import { transferList, type SnapshotData } from './snapshot-data.js'

const sample = (
  JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as {
    records: Fact[]
  }
).records
const info = { publishedAt: '2026-11-24T09:00:00.000Z' }

/** A part as it arrives from another thread: a structured clone, its buffers transferred. */
const sent = (part: SnapshotPart): SnapshotPart => structuredClone(part, { transfer: partTransferList(part) })

/** Builds `records` cut at `cuts`, each part in its own builder, the first absorbing the others in order. */
function buildInParts(records: unknown[], cuts: number[]): SnapshotBuilder {
  const bounds = [0, ...cuts, records.length]
  const builders = bounds.slice(1).map((end, k) => {
    const builder = new SnapshotBuilder('parts')
    for (let i = bounds[k]!; i < end; i++) builder.add(records[i], `line ${i + 1}`)
    return builder
  })
  for (const later of builders.slice(1)) builders[0]!.absorb(sent(later.part()))
  return builders[0]!
}

function buildWhole(records: unknown[]): SnapshotBuilder {
  const builder = new SnapshotBuilder('parts')
  records.forEach((record, i) => builder.add(record, `line ${i + 1}`))
  return builder
}

/** Record `doc`'s bytes, where the snapshot says they are. */
const recordBytes = (data: SnapshotData, doc: number) => {
  const arena = data.arenas[data.recordArena[doc]! - data.inherited]!
  return Buffer.from(arena.buffer, arena.byteOffset + data.recordStart[doc]!, data.recordLength[doc]!)
}

function messageOf(build: () => unknown): string {
  try {
    build()
  } catch (err) {
    return (err as Error).message
  }
  return ''
}

describe('a snapshot built in parts', () => {
  const wholeSample = buildWhole(sample).finish(info)
  it.each([[[1]], [[132]], [[50, 51, 200]], [[0, 264]]])(
    'equals the snapshot built whole (cut at %j)',
    (cuts) => {
      const inParts = buildInParts(sample, cuts).finish(info)
      const whole = wholeSample
      // The same bytes, in one arena per part.
      expect(inParts.arenas).toHaveLength(cuts.length + 1)
      expect(Buffer.concat(inParts.arenas).equals(Buffer.concat(whole.arenas))).toBe(true)
      for (let doc = 0; doc < whole.count; doc++)
        expect(recordBytes(inParts, doc).equals(recordBytes(whole, doc))).toBe(true)
      const placeless = (data: SnapshotData) => ({ ...data, arenas: [], recordArena: [], recordStart: [] })
      expect(digested(placeless(inParts))).toEqual(digested(placeless(whole)))
    },
  )

  it('reports the problems of every part in source order, with their lines', () => {
    const records: unknown[] = sample.map((r) => ({ ...r }))
    ;(records[10] as { kind: string }).kind = 'nope'
    ;(records[200] as { title?: string }).title = undefined
    const message = messageOf(() => buildInParts(records, [100, 220]).finish(info))
    expect(message).toMatch(/2 problem\(s\)[\s\S]*line 11 .*field "kind"[\s\S]*line 201 .*field "title"/)
    expect(message).toBe(messageOf(() => buildWhole(records).finish(info)))
  })

  it('finds an id used in two parts, naming both lines', () => {
    const records: unknown[] = [...sample]
    records[230] = sample[5]
    const message = messageOf(() => buildInParts(records, [100, 220]).finish(info))
    expect(message).toMatch(/1 problem\(s\)[\s\S]*line 231 .*duplicate id, first used by line 6/)
    expect(message).toBe(messageOf(() => buildWhole(records).finish(info)))
  })

  it('keeps no record after a problem, as a whole read does: a later duplicate is not reported', () => {
    const records: unknown[] = [...sample]
    records[10] = { ...sample[10]!, kind: 'nope' }
    records[230] = sample[5]
    const message = messageOf(() => buildInParts(records, [100, 220]).finish(info))
    expect(message).toMatch(/1 problem\(s\)[\s\S]*line 11 /)
    expect(message).toBe(messageOf(() => buildWhole(records).finish(info)))
  })

  it('keeps the first 20 problems of all parts and counts the rest', () => {
    const records: unknown[] = sample.map((r, i) => (i % 5 === 0 ? { ...r, kind: 'nope' } : r))
    const whole = messageOf(() => buildWhole(records).finish(info))
    expect(whole).toMatch(/53 problem\(s\)[\s\S]*… and 33 more/)
    expect(messageOf(() => buildInParts(records, [30, 60]).finish(info))).toBe(whole)
  })

  it('serves the right bytes when a part holds no record (its arena unused, let go and the others renumbered)', () => {
    const records = sample.slice(0, 40)
    const builder = new SnapshotBuilder('parts')
    for (const [from, to] of [
      [0, 20],
      [20, 20],
      [20, 40],
    ] as const) {
      const part = new SnapshotBuilder('parts')
      for (let i = from; i < to; i++) part.add(records[i], `line ${i + 1}`)
      builder.absorb(sent(part.part()))
    }
    const index = new RecordIndex(withPreparedAnswers(builder.finish(info)))
    const served = index.listed(0, index.size).map((entry) => entry.bytes.toString())
    const whole = new RecordIndex(withPreparedAnswers(buildWhole(records).finish(info)))
    expect(served).toEqual(whole.listed(0, whole.size).map((entry) => entry.bytes.toString()))
  })
})

describe('the columns of a snapshot (snapshot-columns.ts)', () => {
  const widthOf = (name: keyof typeof COLUMNS) => (COLUMNS[name] as { width?: number }).width ?? 1
  const isShared = (name: string) => (SHARED_COLUMNS as readonly string[]).includes(name)

  it('hold their width of values per record, in a part and in the snapshot', () => {
    const part = buildWhole(sample.slice(0, 100)).part()
    for (const name of BUILT_COLUMNS) expect([name, part[name].length]).toEqual([name, 100 * widthOf(name)])
    const data = buildWhole(sample).finish(info)
    for (const name of SNAPSHOT_COLUMNS)
      expect([name, data[name].length]).toEqual([name, data.count * widthOf(name)])
  })

  it('go to another thread whole: transferred, or in shared memory (those a reload reads)', () => {
    const data = buildWhole(sample).finish(info)
    const transferred = transferList(data)
    for (const name of SNAPSHOT_COLUMNS) {
      const { buffer } = data[name]
      const shared = buffer instanceof SharedArrayBuffer
      expect([name, shared, transferred.includes(buffer as ArrayBuffer)]).toEqual([
        name,
        isShared(name),
        !shared,
      ])
    }
    const part = buildWhole(sample.slice(0, 100)).part()
    const partTransferred = partTransferList(part)
    for (const name of BUILT_COLUMNS)
      expect([name, partTransferred.includes(part[name].buffer as ArrayBuffer)]).toEqual([name, true])
  })
})

describe("an offer's price is searched", () => {
  it('in words and as an amount, in its currency', () => {
    const offer = sample.find((r) => r.kind === 'offer' && typeof r.offer_data?.price === 'number')!
    const price = offer.offer_data!.price as number
    expect(offer.text).not.toContain(`${price} €`) // the texts do not repeat it: the index must
    const dollars = {
      ...offer,
      id: 'offer-00000000000000aa',
      offer_data: { price: 12, price_currency: 'USD' },
    }
    expect(searchedText(offer).body).toContain(`Prix : ${price} €`)
    expect(searchedText(dollars).body).toContain('Prix : 12 USD')
    expect(searchedText({ ...offer, offer_data: {} }).body).not.toContain('Prix')
    const index = RecordIndex.build({ records: sample })
    const found = (q: string) => index.search({ q, limit: 50, offset: 0 }).results.map((r) => r.doc)
    const doc = index.get(offer.id)!.doc
    expect(found(`${price} euros`)).toContain(doc)
    expect(found(`tarif ${offer.title}`)).toContain(doc)
  })
})

describe("an organization's, a person's and an offer's structured fields are searched", () => {
  const brand = sample.find((r) => r.organization_data?.telephone !== undefined)!
  const index = RecordIndex.build({ records: sample })
  const first = (q: string, match: 'all' | 'best') =>
    index.search({ q, match, limit: 10, offset: 0 }).results[0]?.record.id

  it('the address, telephone and legal name, and a job title, as text of the body', () => {
    const person = sample.find((r) => r.person_data?.job_title !== undefined)!
    const { telephone, legal_name } = brand.organization_data!
    expect(brand.text).not.toContain(telephone) // held only in the structured field: the index must search it
    expect(searchedText(brand).body).toContain(`Téléphone : ${telephone}`)
    expect(searchedText(brand).body).toContain(legal_name)
    const postal = {
      ...brand,
      organization_data: {
        address: { streetAddress: '3 quai des Tests', postalCode: '69002', addressLocality: 'Lyon' },
      },
    }
    expect(searchedText(postal).body).toContain('Adresse : 3 quai des Tests 69002 Lyon')
    // Every word of the job title is searched, those the record's title holds only there.
    const { title, body } = searchedText(person)
    const searched = new Set([...tokenize(title), ...tokenize(body)])
    expect(tokenize(person.person_data!.job_title!).filter((w) => !searched.has(w))).toEqual([])
    const retitled = searchedText({ ...person, title: 'Une personne', text: '' }).body
    expect(tokenize(retitled)).toEqual(expect.arrayContaining(tokenize(person.person_data!.job_title!)))
  })

  it.each(['all', 'best'] as const)(
    'a query for the telephone, the street or the address finds the organization first (match=%s)',
    (match) => {
      const { telephone, address } = brand.organization_data!
      const street = String(address).split(',')[0]! // « 12 rue de l’Exemple »
      expect(first(telephone!, match)).toBe(brand.id)
      expect(first(street, match)).toBe(brand.id)
      expect(first(`adresse ${street}`, match)).toBe(brand.id)
    },
  )

  it("an offer's open members are read as text, but not its links, dates, codes and numbers", () => {
    const offer = sample.find((r) => r.kind === 'offer')!
    const body = searchedText({
      ...offer,
      offer_data: {
        price: 99,
        valid_from: '2026-01-01',
        duration: '3 heures',
        includes: ['le livret d’apprentissage', 'https://code-et-conduite.example/livret'],
        sessions_per_year: 10,
        area_served: 'FRA',
      },
    }).body
    expect(body).toContain('3 heures')
    expect(body).toContain('le livret d’apprentissage')
    for (const absent of ['2026-01-01', 'https://code-et-conduite.example/livret', 'FRA', '\n10'])
      expect(body).not.toContain(absent)
  })
})
