import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import { describe, expect, it } from 'vitest'
import { createRng, hashSeed, sfc32 } from '../../../scripts/corpus/prng.js'
import { temporaryFiles } from '../../../test/support/temporary-files.js'
import { forEachLine } from './ndjson-lines.js'
import type { ByteRange } from './ndjson-parts.js'

const { write } = temporaryFiles('ndjson-lines-', 'ndjson')

/** The lines readline gives for the same bytes: what the reader replaced, and must agree with. */
async function readlineLines(path: string, range?: ByteRange): Promise<string[]> {
  if (range !== undefined && range.start === range.end) return []
  const stream = createReadStream(
    path,
    range === undefined ? { encoding: 'utf8' } : { encoding: 'utf8', start: range.start, end: range.end - 1 },
  )
  const lines: string[] = []
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) lines.push(line)
  return lines
}

async function lines(path: string, range: ByteRange | undefined, chunkBytes: number): Promise<string[]> {
  const out: string[] = []
  await forEachLine(path, range, (line) => out.push(line), chunkBytes)
  return out
}

const PIECES = [
  '{"id":1}',
  'é',
  'priorité à droite',
  '€',
  '𝄞',
  ' ',
  '\n',
  '\r\n',
  '\r',
  '\r\r\n',
  '\n\n',
  'x'.repeat(40),
]

describe('forEachLine splits lines as readline does', () => {
  it.each([
    ['LF', 'a\nb\nc\n'],
    ['no final line break', 'a\nb'],
    ['CRLF', 'a\r\nb\r\n\r\n'],
    ['lone CR', 'a\rb\r\nc\r\r\n'],
    ['CR at the very end', 'a\r'],
    ['empty lines', '\n\n\nx\n'],
    ['empty file', ''],
    ['multi-byte characters', 'é€𝄞\n€\r\n𝄞'],
  ])('%s, with reads of every size', async (_name, content) => {
    const path = write(Buffer.from(content))
    const expected = await readlineLines(path)
    for (const chunk of [1, 2, 3, 4, 7, 1024]) expect(await lines(path, undefined, chunk)).toEqual(expected)
  })

  it('random contents, whole and in byte ranges of whole lines, with reads cutting lines, breaks and characters', async () => {
    for (let seed = 1; seed <= 60; seed++) {
      const { next } = createRng(sfc32(hashSeed(`ndjson-lines ${seed}`)))
      const content = Buffer.from(
        Array.from(
          { length: 1 + Math.floor(next() * 80) },
          () => PIECES[Math.floor(next() * PIECES.length)],
        ).join(''),
      )
      const path = write(content)
      for (const chunk of [1, 5, 16, 64])
        expect(await lines(path, undefined, chunk), `seed ${seed}, chunk ${chunk}`).toEqual(
          await readlineLines(path),
        )
      // Whole lines, as ndjson-parts.ts cuts them: a range starts and ends just past a "\n", or at the file's ends.
      const cuts = [
        0,
        ...Array.from(content).flatMap((byte, i) => (byte === 0x0a ? [i + 1] : [])),
        content.length,
      ]
      const [a, b] = [cuts[Math.floor(next() * cuts.length)]!, cuts[Math.floor(next() * cuts.length)]!]
      const range = { start: Math.min(a, b), end: Math.max(a, b) }
      for (const chunk of [1, 3, 64])
        expect(await lines(path, range, chunk), `seed ${seed}, range ${range.start}-${range.end}`).toEqual(
          await readlineLines(path, range),
        )
    }
  })

  it('reads a line longer than its buffer whole', async () => {
    const long = 'é'.repeat(5000)
    const path = write(Buffer.from(`${long}\r\nshort\n${long}`))
    expect(await lines(path, undefined, 16)).toEqual([long, 'short', long])
  })

  it('passes on what the line callback throws, and closes the file', async () => {
    const path = write(Buffer.from('a\nb\nc\n'))
    const seen: string[] = []
    const read = forEachLine(path, undefined, (line) => {
      seen.push(line)
      if (line === 'b') throw new Error('bad line b')
    })
    await expect(read).rejects.toThrow('bad line b')
    expect(seen).toEqual(['a', 'b'])
  })
})
