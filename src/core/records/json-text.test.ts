import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CorpusGenerator } from '../../../scripts/corpus/generate.js'
import {
  canonical,
  expectRewritesJudgedRightly,
  judged,
} from '../../../test/support/properties/json-rewrites.js'
import { temporaryFiles } from '../../../test/support/temporary-files.js'
import { ETAG_LENGTH } from '../search/snapshot-data.js'
import { loadInProcess } from '../snapshots/load-snapshot.js'
import { FileRecordSource } from './file-source.js'
import { canonicalBytes, isCanonicalJson } from './json-text.js'
import { FactSchema, type Fact } from './record.js'
import { RecordValidator } from './validate.js'

const sample = (
  JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as {
    records: Fact[]
  }
).records
const generated = [...new CorpusGenerator({ sample, seed: 'json-text' }).records(1_000)]

describe('isCanonicalJson', () => {
  it('recognises the canonical JSON of every valid record', () => {
    for (const record of [...sample, ...generated])
      expect([record.id, judged(JSON.stringify(record))]).toEqual([record.id, true])
  })

  it('judges each record by its own measure, whatever the validator checked after it', () => {
    const validator = new RecordValidator('test')
    const lesson = JSON.stringify(generated.find((r) => r.chapter !== undefined)!)
    const offer = JSON.stringify(generated.find((r) => r.offer_data?.price !== undefined)!)
    const first = validator.check(JSON.parse(lesson), 'line 1')!
    const second = validator.check(JSON.parse(offer), 'line 2')!
    expect(first.measure!.numberKeys).not.toEqual(second.measure!.numberKeys)
    expect([isCanonicalJson(lesson, first.measure), isCanonicalJson(offer, second.measure)]).toEqual([
      true,
      true,
    ])
    expect(isCanonicalJson(lesson, second.measure)).toBe(false)
  })

  it('refuses a number spelled otherwise than JSON.stringify spells it, even where lengths compensate', () => {
    const lesson = generated.find(
      (r) => r.chapter !== undefined && r.chapter.number >= 1 && r.chapter.number <= 9,
    )!
    const json = JSON.stringify(lesson)
    expect(judged(json)).toBe(true)
    const member = `"number":${lesson.chapter!.number}`
    for (const spelling of [
      `${lesson.chapter!.number}.0`,
      `${lesson.chapter!.number}e0`,
      `${lesson.chapter!.number}E0`,
    ]) {
      const text = json.replace(member, `"number":${spelling}`)
      expect(JSON.parse(text)).toEqual(JSON.parse(json))
      expect([spelling, judged(text)]).toEqual([spelling, false])
    }
    // 1e3 is one character shorter than 1000: a space elsewhere makes the lengths equal.
    const offer = structuredClone(generated.find((r) => r.offer_data?.price !== undefined)!)
    offer.offer_data!.price = 1000
    const canonicalOffer = JSON.stringify(offer)
    expect(judged(canonicalOffer)).toBe(true)
    const shorter = canonicalOffer.replace('"price":1000', '"price":1e3').replace('":', '": ')
    expect(shorter.length).toBe(canonicalOffer.length)
    expect(judged(shorter)).toBe(false)
    // A duplicate member spelled canonically does not vouch for the one kept.
    expect(judged(canonicalOffer.replace('"price":1000', '"price":1000,"price":1e3'))).toBe(false)
  })

  it('refuses an open object whose keys an object lists in another order than the text (array indexes first)', () => {
    const offer = generated.find((r) => r.offer_data?.price !== undefined)!
    const json = JSON.stringify(offer).replace(/"offer_data":\{([^}]*)\}/, '"offer_data":{$1,"10":"dix"}')
    expect(json).not.toBe(canonical(json)) // "10" comes first in the record as parsed
    expect(json.length).toBe(canonical(json).length)
    expect(judged(json)).toBe(false)
    const address = JSON.stringify({
      ...offer,
      organization_data: { address: { street: 'rue', '2': 'bis' } },
    })
    expect(judged(address)).toBe(false)
  })

  it('refuses texts that parse to the same record but are written otherwise', () => {
    const record = generated.find(
      (r) => r.text.includes('é') && r.sources.length > 0 && !r.chapter && !r.offer_data,
    )!
    const json = JSON.stringify(record)
    expect(judged(json)).toBe(true)
    const variants = {
      'white space after a colon': json.replace('":', '": '),
      'white space at the end': `${json} `,
      'a line break inside the object': json.replace(',"', ',\n"'),
      'a \\u escape of a letter': json.replace('é', '\\u00e9'),
      'an escaped solidus': json.replace('https:/', 'https:\\/'),
      'keys in another order': JSON.stringify(Object.fromEntries(Object.entries(record).reverse())),
      'a duplicate key': json.replace('{"id":', `{"title":"x","id":`),
      'a duplicate key whose first value holds escapes': json.replace(
        '{"id":',
        `{"text":"a\\n\\"b\\"","id":`,
      ),
      'a string zod trims': json.replace(`"title":"`, `"title":" `),
    }
    for (const [name, text] of Object.entries(variants)) {
      expect(JSON.parse(text)).toBeDefined()
      expect([name, judged(text)]).toEqual([name, false])
    }
  })

  // The same property over ten times the rewrites runs in the scale tier (json-text.scale.test.ts).
  it('never calls a text canonical that is not, over texts rewritten at random', () => {
    expectRewritesJudgedRightly(sample, generated, 400)
  })
})

describe('canonicalBytes', () => {
  it('gives the bytes a text was decoded from only when they are its UTF-8', () => {
    const text = Buffer.from('xx{"a":"é"}yy')
    expect(Buffer.from(canonicalBytes(text, 2, text.length - 2)!).toString()).toBe('{"a":"é"}')
    // A 4-byte sequence cut short decodes to one U+FFFD: a text of the same length, other bytes.
    const cut = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xf0, 0x9f, 0x98, 0x22, 0x7d])
    expect(cut.toString('utf8')).toBe('{"a":"\uFFFD"}')
    expect(canonicalBytes(cut, 0, cut.length)).toBeUndefined()
  })
})

describe('a snapshot built from NDJSON', () => {
  const files = temporaryFiles('json-text-', 'ndjson')

  it('serves every record as its canonical JSON, whichever way its line was written', async () => {
    const records = generated.slice(0, 40)
    const lines = records.map((record, i) => {
      const json = JSON.stringify(record)
      switch (i % 8) {
        case 0:
          return Buffer.from(json.replace('":', '": ')) // white space
        case 1:
          return Buffer.from(json.replace(/é/g, '\\u00e9')) // escaped letters
        case 2:
          return Buffer.from(`${json}\r`) // a CRLF line
        case 3:
          return Buffer.from(JSON.stringify(Object.fromEntries(Object.entries(record).reverse()))) // another key order
        case 4:
          // invalid UTF-8 is refused at load (record-refusals.test.ts): an escaped slash instead
          return Buffer.from(json.replaceAll('/', '\\/'))
        default:
          return Buffer.from(json) // canonical, kept as read
      }
    })
    const path = files.write(
      Buffer.concat([Buffer.from('\uFEFF'), ...lines.flatMap((line) => [line, Buffer.from('\n')])]),
    )
    const index = await loadInProcess(new FileRecordSource(path))
    const source = new FileRecordSource(path)
    const parsed: unknown[] = []
    await source.read((value) => void parsed.push(value))
    expect(index.size).toBe(records.length)
    for (const value of parsed) {
      const record = FactSchema.parse(value)
      const served = index.get(record.id)!
      const json = JSON.stringify(record)
      expect(served.bytes.toString('utf8')).toBe(json)
      expect(served.etag).toBe(
        `"${createHash('sha256').update(json).digest('base64url').slice(0, ETAG_LENGTH)}"`,
      )
    }
  })
})
