/**
 * Random changes to a record's JSON text, valid or not, for the properties that compare a check with
 * zod (fast-parse.ts beside it).
 */
import type { Rng } from '../../../scripts/corpus/prng.js'

/** One random change to a record's JSON text: valid or not, as a records file may hold. */
export function mutate(json: string, rng: Rng): string {
  const record = JSON.parse(json) as Record<string, unknown>
  const keys = Object.keys(record)
  const key = rng.pick(keys)
  const odd = rng.pick<unknown>([
    '',
    ' ',
    '  x  ',
    '\u00a0x',
    'x\ufeff',
    '\tx\n',
    0,
    -1,
    1.5,
    2 ** 53,
    true,
    null,
    [],
    {},
    ['x'],
    [' '],
    { a: 1 },
  ])
  const urls = [
    'https://exa mple.com',
    'https://example.com:99999/',
    'https://xn--a.com/',
    ' https://example.com/ ',
    'http://a.b.fr',
    'https://ex\tample.com/',
    'ftp://example.com/',
    'https://EXAMPLE.com/',
    'https://example.com/"><script>alert(1)</script>',
    "https://example.com/'onmouseover='x",
    'https://example.com',
  ]
  switch (rng.int(12)) {
    case 0: // a field removed
      delete record[key]
      break
    case 1: // a field of another type or value
      record[key] = odd
      break
    case 2: // an unknown field
      record[rng.pick(['extra', 'titel', 'constructor', 'toString'])] = odd
      break
    case 3: // the same fields in another order
      return JSON.stringify(Object.fromEntries(keys.sort(() => rng.next() - 0.5).map((k) => [k, record[k]])))
    case 4: // a string padded with what zod's trim removes
      for (const k of keys)
        if (typeof record[k] === 'string' && rng.chance(0.5))
          record[k] =
            rng.pick([' ', '\n', '\u00a0', '\u2003']) + (record[k] as string) + rng.pick(['', ' ', '\t'])
      break
    case 5: // a URL of another shape
      record[rng.pick(['url', 'image'])] = rng.pick(urls)
      if (Array.isArray(record.sources) && record.sources.length > 0)
        (record.sources as Record<string, unknown>[])[0]!.url = rng.pick(urls)
      break
    case 6: // an open object with extra keys, or with a bad typed one
      record.organization_data = rng.pick<unknown>([
        { legal_name: 'X', extra: [1, { b: 2 }], address: { street: 'rue' } },
        { address: 3 },
        { same_as: ['https://example.com/', 'nope'] },
        { telephone: '01', z: null, a: 'first' },
      ])
      record.offer_data = rng.pick<unknown>([
        { price: 0, price_currency: 'EUR', other: true },
        { price: -1 },
        { price: '12 €', valid_from: '2026-02-30' },
        { price_currency: 'eur' },
      ])
      break
    case 7: // dates and date-times
      record[rng.pick(['verified_at', 'effective_from', 'modified_at'])] = rng.pick([
        '2024-02-29',
        '2023-02-29',
        '2026-13-01',
        '2026-11-26T10:00:00Z',
        '2026-11-26T10:00:00+01:00',
        '2026-11-26T10:00:00',
        '2026-11-26',
      ])
      break
    case 8: // ids and kinds that disagree
      record.id = rng.pick([
        'fait-0123456789abcdef',
        'page-0123456789ABCDEF',
        'expertise-fait-0123456789abcdef',
        'offer-0123',
        'brand-0123456789abcdef',
      ])
      break
    case 9: // the rule spanning fields
      record.verification_scope = rng.pick(['Relecture', 'x'.repeat(501)])
      if (rng.chance(0.5)) delete record.verified_at
      break
    case 10: // arrays: empty, or holding a bad element
      record[rng.pick(['regions', 'sources', 'bibliography', 'related'])] = rng.pick<unknown>([
        [],
        [''],
        ['France', 3],
        [{ url: 'https://example.com/', label: ' L ', type: 'official' }],
        [{ url: 'https://example.com/', label: 'L', type: 'other' }],
      ])
      break
    default: // a nested object with an unknown key, or a chapter and video of odd shapes
      record[rng.pick(['chapter', 'video'])] = rng.pick<unknown>([
        { number: 1, title: ' T ' },
        { number: -1, title: 'T' },
        { number: 1.5, title: 'T' },
        { number: 1, title: 'T', x: 1 },
        { duration_seconds: 3, chapters: [{ start_seconds: 0, title: 'a', url: 'https://example.com/' }] },
      ])
  }
  return JSON.stringify(record)
}
