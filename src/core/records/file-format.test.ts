import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { temporaryFiles } from '../../../test/support/temporary-files.js'
import { detectFormat, parseDocument } from './file-format.js'
import { FileRecordSource } from './file-source.js'
import type { Fact } from './record.js'

const fixture = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/records.small.json', import.meta.url), 'utf8'),
) as Fact[]
const { dir, write: fileWith } = temporaryFiles('records-format-', 'json')

describe('detectFormat: told once, from the start of the file', () => {
  it.each([
    ['a JSON array', '[\n  {"id": "x"}\n]\n', 'document'],
    ['a pretty-printed snapshot', '{\n  "records": []\n}\n', 'document'],
    ['a one-line snapshot followed by a newline', '{"records": []}\n', 'document'],
    ['NDJSON', '{"id": "a"}\n{"id": "b"}\n', 'ndjson'],
    ['NDJSON after blank lines and a BOM', '\uFEFF\n\n{"id": "a"}\n{"id": "b"}\n', 'ndjson'],
    ['a single line', '{"id": "a"}', 'document'],
    ['a pretty-printed object of another shape', '{\n  "foo": 1\n}\n', 'document'],
    ['one object of another shape on one line', '{"foo": 1}\n', 'document'],
    ['NDJSON whose first record lacks an id', '{"foo": 1}\n{"id": "b"}\n', 'ndjson'],
  ])('%s', (_name, head, format) => {
    expect(detectFormat(head)).toBe(format)
  })
})

describe('parse errors say where the problem is', () => {
  it("reports a syntax error in a pretty-printed JSON file at the parser's line and column", async () => {
    const pretty = JSON.stringify(fixture.slice(0, 3), null, 2).split('\n')
    // A trailing comma after the last field of the second record: the kind of slip an editor leaves.
    const second = pretty.findIndex((line, i) => i > 3 && line === '  {')
    const closing = pretty.indexOf('  },', second)
    pretty[closing - 1] += ','
    const path = fileWith(pretty.join('\n'))
    await expect(new FileRecordSource(path).load()).rejects.toThrow(
      `records: file:${path}: line ${closing + 1}, column 3: not valid JSON (Expected double-quoted property name)`,
    )
  })

  it('locates errors V8 gives no position for', () => {
    expect(() => parseDocument('file:/x.json', '[\n  {"id": oops}\n]')).toThrow(
      "records: file:/x.json: line 2, column 10: not valid JSON (Unexpected token 'o')",
    )
    expect(() => parseDocument('file:/x.json', '[\n  {"id": "a"}\n')).toThrow(
      /^records: file:\/x\.json: line 3, column 1: not valid JSON \((Expected ',' or '\]' after array element|Unexpected end of JSON input)\)$/,
    )
  })

  it('names a file of another shape instead of reading it as records', async () => {
    const path = fileWith('{"foo":1}\n')
    await expect(new FileRecordSource(path).load()).rejects.toThrow(
      `records: file:${path}: expected a JSON array of records, NDJSON (one record per line) or {"records": [...]}; found a JSON object with the key "foo"`,
    )
    expect(() => parseDocument('file:/x.json', '{\n  "foo": 1,\n  "bar": []\n}')).toThrow(
      /found a JSON object with the keys "foo", "bar"$/,
    )
    expect(() => parseDocument('file:/x.json', '42')).toThrow(/found a JSON number$/)
    expect(() => parseDocument('file:/x.json', '"records"')).toThrow(/found a JSON string$/)
  })

  it('still reads a lone record as one-record NDJSON', async () => {
    expect((await new FileRecordSource(fileWith(JSON.stringify(fixture[0]))).load()).records).toEqual([
      fixture[0],
    ])
  })

  it('refuses an empty file (what a half-written file looks like) but reads an empty array', async () => {
    await expect(new FileRecordSource(fileWith('  \n')).load()).rejects.toThrow(/the file is empty$/)
    expect((await new FileRecordSource(fileWith('[]')).load()).records).toEqual([])
  })

  it('names read errors in words, with the code', async () => {
    await expect(new FileRecordSource(dir).load()).rejects.toThrow(
      `records: file:${dir}: cannot read the file: it is a folder, not a file (EISDIR)`,
    )
  })
})
