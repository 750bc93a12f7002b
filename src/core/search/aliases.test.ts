import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ALIASES_FILE, AliasFileSchema, AliasTable, loadAliases } from './aliases.js'
import { tokenize } from './tokenize.js'

const file = AliasFileSchema.parse(JSON.parse(readFileSync(ALIASES_FILE, 'utf8')))
const table = loadAliases()
const words = (q: string) => tokenize(q)

describe('the alias file (data/search/aliases.json)', () => {
  it('is versioned, and every entry says why it is there', () => {
    expect(file.version).toBeGreaterThanOrEqual(1)
    for (const entry of file.aliases)
      expect(entry.reason.length, JSON.stringify(entry)).toBeGreaterThanOrEqual(10)
  })
  it('names every phrase once per entry', () => {
    for (const entry of file.aliases) {
      const phrases = 'same' in entry ? entry.same : [...entry.when, ...entry.also]
      expect(new Set(phrases.map((p) => tokenize(p).join(' '))).size, JSON.stringify(entry)).toBe(
        phrases.length,
      )
    }
  })
  it('refuses an entry without a reason, or a phrase without a significant word', () => {
    expect(() =>
      AliasFileSchema.parse({ version: 1, about: '', aliases: [{ kind: 'synonym', same: ['a', 'b'] }] }),
    ).toThrow(/reason/)
    expect(
      () =>
        new AliasTable({
          version: 1,
          about: '',
          aliases: [{ kind: 'synonym', same: ['moto', 'de la'], reason: 'a reason here' }],
        }),
    ).toThrow('aliases: "de la" has no significant word')
  })
})

describe('AliasTable.match', () => {
  it('finds a one-way alias only from its "when" side', () => {
    expect(table.match(words('vitesse max'), 1)?.also.map((p) => p.text)).toEqual(['maximal', 'maximum'])
    expect(table.match(words('maximal'), 0)).toBeUndefined()
  })
  it('finds a two-way alias from each side, with the others', () => {
    expect(table.match(words('moto'), 0)?.also.map((p) => p.text)).toEqual(['motocyclette'])
    expect(table.match(words('motocyclette'), 0)?.also.map((p) => p.text)).toEqual(['moto'])
  })
  it('matches the longest phrase, and says how many query words it spans', () => {
    const match = table.match(words('rond point giratoire'), 0)
    expect(match?.length).toBe(2)
    expect(match?.also.map((p) => p.text)).toEqual(['giratoire'])
    expect(table.match(words('rond'), 0)).toBeUndefined()
  })
  it('keeps a phrase alias as the words it must all find, stop words left out', () => {
    const bau = table.match(words('bau'), 0)?.also[0]
    expect(bau).toEqual({ text: "bande d'arrêt d'urgence", words: ['bande', 'arret', 'urgence'] })
  })
})
