/**
 * The rule for a record's URL fields (src/core/records/http-url.ts) over random URL-like strings,
 * checked by what it promises rather than how it decides: shared by the unit tier (a quick check)
 * and the scale tier (100 000 strings).
 */
import { expect } from 'vitest'
import { z } from 'zod'
import { createRng, hashSeed, sfc32 } from '../../../scripts/corpus/prng.js'
import { httpUrlProblem } from '../../../src/core/records/http-url.js'

/** zod's URL check as the record schema had it before, which kept what it accepted but for trimming it. */
const earlierRule = z.url({ protocol: /^https?$/, hostname: z.regexes.domain })

/**
 * `strings` random URL-like strings: each one accepted is printable ASCII with no quote, backtick,
 * angle bracket, backslash or space, reads back as itself through the URL parser, and was accepted
 * unchanged by the earlier rule (the rule only refuses more); each one refused has a reason, and
 * when the reason names a spelling, that spelling is what the parser writes.
 */
export function expectRandomUrlsRuled(strings: number): void {
  const rng = createRng(sfc32(hashSeed('record urls')))
  const labels = [
    'example',
    'a',
    'EX-ample',
    'xn--bcher-kva',
    '1',
    '0x1',
    '-x',
    'x-',
    'a'.repeat(63),
    'a'.repeat(64),
    'bücher',
    'ex ample',
    '',
    'com',
    'fr',
    'c',
  ]
  const units = [
    ...'aZ0.-_~/?#%:@[]!\'"<>` \t\n\\{}|^=&;+,$*()',
    '%zz',
    '%2F',
    '/./',
    '/../',
    'é',
    '\u2028',
    '\u0000',
    '\u000b',
    '\u00a0',
    '😀',
  ]
  const safeUnits = [...'aZ0.-_~/?#:@!=&;+,$*()', '%2F', '%C3%A9']
  let accepted = 0
  for (let n = 0; n < strings; n++) {
    // Half of them close to a valid URL (one hostile unit at most), half anything.
    const near = rng.chance(0.5)
    let value = near
      ? rng.pick(['https://', 'http://'])
      : rng.pick(['https://', 'http://', 'https:/', 'HTTP://', 'ftp://', ' https://', 'https:', ''])
    value += near
      ? `${rng.pick(['example', 'www.exa-mple', 'a.b'])}.${rng.pick(['com', 'fr', 'example'])}`
      : Array.from({ length: rng.between(1, 4) }, () => rng.pick(labels)).join('.')
    if (near || rng.chance(0.7))
      value += rng.pick(['/', '/', '?', '#', ':', ':80/', ':8080/', ':443/', '@', '.', ''])
    for (let k = rng.between(0, 8); k > 0; k--)
      value += near && !rng.chance(0.05) ? rng.pick(safeUnits) : rng.pick(units)
    const problem = httpUrlProblem(value)
    if (problem !== undefined) {
      const spelling = /written as the WHATWG URL parser writes it: (".*")$/.exec(problem)
      if (spelling !== null) expect(JSON.parse(spelling[1]!)).toBe(new URL(value).href)
      continue
    }
    accepted++
    expect([value, /^https?:\/\/[\x21-\x7e]+$/.test(value), /["'`<>\\]/.test(value)]).toEqual([
      value,
      true,
      false,
    ])
    expect(new URL(value).href).toBe(value)
    expect(earlierRule.safeParse(value)).toEqual({ success: true, data: value })
  }
  expect(accepted).toBeGreaterThan(strings / 20)
}
