import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { REFUSED_RECORDS } from '../../../test/support/refused-records.js'
import { temporaryFiles } from '../../../test/support/temporary-files.js'
import { FileRecordSource } from './file-source.js'
import { RECORD_BOUNDS } from './record-bounds.js'
import type { Fact } from './record.js'

const fixture = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/records.small.json', import.meta.url), 'utf8'),
) as Fact[]
const lines = fixture.map((r) => JSON.stringify(r))
const { write } = temporaryFiles('refusals-', 'ndjson')
const load = (content: string | Uint8Array) => new FileRecordSource(write(content)).load()

describe('a load refuses what it would otherwise change, naming the line, the field and the reason', () => {
  it.each(REFUSED_RECORDS)('$name', async ({ line, reason }) => {
    const file = [lines[0], line(lines[1]!), ...lines.slice(2)].join('\n')
    const refusal = load(file)
    await expect(refusal).rejects.toThrow(/nothing loaded/)
    await expect(refusal).rejects.toThrow(new RegExp(`line 2 \\(id "${fixture[1]!.id}"\\): ${reason.source}`))
  })

  // The valid lines hold accents too: only the second is written in Latin-1.
  const withLatin1Line = (before: string, after: string) =>
    Buffer.concat([
      Buffer.from(before),
      Buffer.from(lines[1]!.replace('"title":"', '"title":"Sécurité '), 'latin1'),
      Buffer.from(after),
    ])

  it('refuses a Latin-1 line, naming it', async () => {
    await expect(load(withLatin1Line(`${lines[0]}\n`, `\n${lines[2]}`))).rejects.toThrow(
      /line 2: not valid UTF-8/,
    )
  })

  it('refuses a Latin-1 JSON document, naming the line', async () => {
    await expect(load(withLatin1Line(`[\n${lines[0]},\n`, '\n]'))).rejects.toThrow(/line 3: not valid UTF-8/)
  })

  it('refuses a line longer than any record may be before holding it whole, naming it', async () => {
    const huge = lines[1]!.replace(/"text":"[^"]*"/, `"text":"${'a'.repeat(9_000_000)}"`)
    await expect(load([lines[0], huge, lines[2]].join('\n'))).rejects.toThrow(
      /line 2: longer than 8 MiB, more than a record may hold/,
    )
  })

  it('refuses a record whose strings together pass their bound, though each is within its own', async () => {
    const wide = {
      ...fixture[1]!,
      offer_data: Object.fromEntries(
        Array.from({ length: 3 }, (_, i) => [`k${i}`, 'x'.repeat(RECORD_BOUNDS.text)]),
      ),
    }
    await expect(load([lines[0], JSON.stringify(wide)].join('\n'))).rejects.toThrow(
      new RegExp(
        `line 2 \\(id "${fixture[1]!.id}"\\): record: more than ${RECORD_BOUNDS.totalCharacters} characters`,
      ),
    )
  })

  it('keeps a record at every bound as it is', async () => {
    const record = {
      ...fixture[1]!,
      title: 'é'.repeat(RECORD_BOUNDS.shortText),
      text: 'prudence '.repeat(RECORD_BOUNDS.text / 9).padEnd(RECORD_BOUNDS.text, '.'),
      regions: Array.from({ length: RECORD_BOUNDS.items }, () => 'France'),
      offer_data: JSON.parse(
        `${'{"a":'.repeat(RECORD_BOUNDS.depth - 1)}1${'}'.repeat(RECORD_BOUNDS.depth - 1)}`,
      ),
    }
    const { records } = await load([lines[0], JSON.stringify(record)].join('\n'))
    expect(records[1]).toEqual(record)
  })
})
