import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { temporaryFiles } from '../../../test/support/temporary-files.js'
import { openSource } from '../snapshots/open-source.js'
import { FileRecordSource } from './file-source.js'
import { lineBreaksBefore, splitLines } from './ndjson-parts.js'
import type { Fact } from './record.js'

const fixture = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/records.small.json', import.meta.url), 'utf8'),
) as Fact[]
const { write } = temporaryFiles('ndjson-parts-', 'ndjson')

/** Every (record, where) a source reads. */
async function readAll(source: {
  read: FileRecordSource['read']
}): Promise<{ value: unknown; where: string }[]> {
  const read: { value: unknown; where: string }[] = []
  await source.read((value, where) => read.push({ value, where }))
  return read
}

describe('lineBreaksBefore counts lines as readline does', () => {
  it.each([
    ['LF', 'a\nb\nc\n'],
    ['CRLF', 'a\r\nb\r\n\r\n'],
    ['lone CR', 'a\rb\r\nc\r\r\n'],
  ])('%s, at every end and with chunks of every size', async (_name, content) => {
    const path = write(content)
    for (const chunk of [1, 2, 3, 1024]) {
      for (let end = 0; end <= content.length; end++) {
        expect(await lineBreaksBefore(path, end, chunk)).toBe(countLikeReadline(content.slice(0, end)))
      }
    }
  })
})

/** How many lines readline has ended after reading `text` (a trailing "\r" ends one, as readline does at the end of input). */
function countLikeReadline(text: string): number {
  return (text.match(/\r\n|\r|\n/g) ?? []).length
}

describe('splitLines', () => {
  it('cuts a file into consecutive ranges of whole lines covering it', async () => {
    const lines = fixture.map((r) => JSON.stringify(r))
    const bytes = Buffer.from(`${lines.join('\n')}\n`)
    const path = write(bytes.toString())
    for (const parts of [2, 3, 5, 20]) {
      const ranges = await splitLines(path, bytes.length, parts, 1)
      expect(ranges[0]!.start).toBe(0)
      expect(ranges.at(-1)!.end).toBe(bytes.length)
      for (let k = 1; k < ranges.length; k++) {
        expect(ranges[k]!.start).toBe(ranges[k - 1]!.end)
        expect(bytes[ranges[k]!.start - 1]).toBe(0x0a)
      }
      expect(ranges.length).toBeLessThanOrEqual(parts)
    }
  })
  it('keeps a file too small to share in one range', async () => {
    const path = write('{"a":1}\n{"b":2}\n')
    expect(await splitLines(path, 16, 4)).toEqual([{ start: 0, end: 16 }])
  })
})

describe('FileRecordSource read in parts', () => {
  const variants: [string, string][] = [
    ['LF with a BOM and blank lines', `\uFEFF${fixture.map((r) => JSON.stringify(r)).join('\n\n')}\n`],
    ['CRLF, no final line break', fixture.map((r) => JSON.stringify(r)).join('\r\n')],
    [
      'accented text (multi-byte characters at the cuts)',
      fixture.map((r) => JSON.stringify({ ...r, title: `Éé ${r.title} àç` })).join('\n'),
    ],
  ]
  it.each(variants)(
    '%s: the parts read the records of a whole read, numbered the same',
    async (_name, content) => {
      const path = write(content)
      const whole = await readAll(new FileRecordSource(path))
      for (const parts of [2, 3, 7]) {
        const specs = (await new FileRecordSource(path).split(parts, 1))!
        expect(specs.length).toBeGreaterThan(1)
        const read = []
        for (const spec of specs) read.push(...(await readAll(await openSource(spec))))
        expect(read).toEqual(whole)
      }
    },
  )

  it('names a bad line of a later part by its line in the file', async () => {
    const lines = fixture.map((r) => JSON.stringify(r))
    lines[lines.length - 2] = '{"id": oops}'
    const path = write(lines.join('\n'))
    const specs = (await new FileRecordSource(path).split(2, 1))!
    await expect(readAll(await openSource(specs.at(-1)!))).rejects.toThrow(
      new RegExp(`line ${lines.length - 1}, column 8: not valid JSON`),
    )
  })

  it('is not offered for a JSON document, nor for one thread', async () => {
    expect(await new FileRecordSource(write(JSON.stringify(fixture))).split(4, 1)).toBeUndefined()
    expect(
      await new FileRecordSource(write(fixture.map((r) => JSON.stringify(r)).join('\n'))).split(1, 1),
    ).toBeUndefined()
  })
})
