/**
 * The embedded default source: a records file on disk, in one of three forms —
 * a JSON array of records, NDJSON (one record per line), or a snapshot object
 * `{"about": "…", "published_at": "…", "records": [ … ]}` that carries its publication date.
 */
import { createReadStream, unwatchFile, watchFile } from 'node:fs'
import { open, readFile, stat } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import type { RecordBatch, RecordSource } from './source.js'
import { validateRecords, type RawRecord } from './validate.js'

/** How often the file's mtime and size are polled; polling survives editors and atomic renames that break fs.watch. */
const WATCH_INTERVAL_MS = 2_000

export class FileRecordSource implements RecordSource {
  readonly origin: string
  constructor(
    private readonly path: string,
    private readonly watchIntervalMs = WATCH_INTERVAL_MS,
  ) {
    this.origin = `file:${path}`
  }

  /** The file's mtime and size when the last load began: what "changed" is measured against. */
  #loadedVersion = ''

  async load(): Promise<RecordBatch> {
    try {
      this.#loadedVersion = versionOf(await stat(this.path))
      // NDJSON is read line by line: a whole large file would not fit in one string (V8 caps strings
      // at ~512 MiB, about 330 000 records), and lines need not all be in memory at once.
      const { raw, publishedAt } = (await this.isNdjson()) ? { raw: await this.readNdjson(), publishedAt: undefined } : await this.readWhole()
      const records = validateRecords(this.origin, raw)
      return { records, publishedAt: publishedAt ?? (await stat(this.path)).mtime.toISOString() }
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code === undefined || (err as Error).message.startsWith('records:')) throw err
      throw new Error(`records: ${this.origin}: cannot read the file (${code})`, { cause: err })
    }
  }

  /** NDJSON when the first line alone is a complete JSON object that is not a snapshot wrapper. */
  private async isNdjson(): Promise<boolean> {
    const file = await open(this.path)
    try {
      const { buffer, bytesRead } = await file.read({ buffer: Buffer.alloc(1 << 20), position: 0 })
      const head = buffer.subarray(0, bytesRead).toString('utf8').replace(/^\uFEFF/, '')
      const newline = head.indexOf('\n')
      if (newline === -1 || !head.trimStart().startsWith('{')) return false
      const first = tryJson(head.slice(0, newline))
      return first.ok && isObject(first.value) && !('records' in first.value)
    } finally {
      await file.close()
    }
  }

  private async readWhole(): Promise<{ raw: RawRecord[]; publishedAt?: string }> {
    return this.parse((await readFile(this.path, 'utf8')).replace(/^\uFEFF/, ''))
  }

  private async readNdjson(): Promise<RawRecord[]> {
    const raw: RawRecord[] = []
    const lines = createInterface({ input: createReadStream(this.path, { encoding: 'utf8' }), crlfDelay: Infinity })
    let number = 0
    for await (const line of lines) {
      const record = this.ndjsonLine(number === 0 ? line.replace(/^\uFEFF/, '') : line, ++number)
      if (record !== undefined) raw.push(record)
    }
    return raw
  }

  /** One NDJSON line (numbered from 1): a raw record, or undefined for a blank line. */
  private ndjsonLine(line: string, number: number): RawRecord | undefined {
    if (line.trim() === '') return undefined
    const parsed = tryJson(line)
    if (!parsed.ok) throw new Error(`records: ${this.origin}: line ${number}: not valid JSON (${parsed.error})`)
    return { value: parsed.value, where: `line ${number}` }
  }

  private parse(text: string): { raw: RawRecord[]; publishedAt?: string } {
    const trimmed = text.trimStart()
    if (trimmed === '') throw new Error(`records: ${this.origin}: the file is empty`)
    if (trimmed.startsWith('[')) return { raw: this.indexed(this.parseJson(text)) }
    // One JSON object is either a snapshot wrapper or a one-line NDJSON file; several lines are NDJSON.
    const whole = tryJson(text)
    if (whole.ok && isObject(whole.value) && 'records' in whole.value) return this.parseSnapshot(whole.value)
    return { raw: this.parseNdjson(text) }
  }

  private parseJson(text: string): unknown[] {
    const parsed = tryJson(text)
    if (!parsed.ok) throw new Error(`records: ${this.origin}: not valid JSON (${parsed.error})`)
    if (!Array.isArray(parsed.value)) throw new Error(`records: ${this.origin}: expected a JSON array of records`)
    return parsed.value
  }

  private parseSnapshot(value: Record<string, unknown>): { raw: RawRecord[]; publishedAt?: string } {
    if (!Array.isArray(value.records)) throw new Error(`records: ${this.origin}: "records" must be an array`)
    const publishedAt = value.published_at
    if (publishedAt !== undefined && (typeof publishedAt !== 'string' || Number.isNaN(Date.parse(publishedAt)))) {
      throw new Error(`records: ${this.origin}: "published_at" must be an RFC 3339 date-time`)
    }
    return { raw: this.indexed(value.records), publishedAt: publishedAt === undefined ? undefined : new Date(publishedAt).toISOString() }
  }

  private parseNdjson(text: string): RawRecord[] {
    return text.split('\n').flatMap((line, i) => this.ndjsonLine(line, i + 1) ?? [])
  }

  private indexed(values: unknown[]): RawRecord[] {
    return values.map((value, i) => ({ value, where: `record ${i}` }))
  }

  watch(onChange: () => void): () => void {
    // Compared with what the last load saw, not with the previous poll: a change made between the
    // load and the watcher's first poll is still seen, and a refused file is not reloaded every poll.
    const listener = (curr: { mtimeMs: number; size: number }) => {
      if (versionOf(curr) !== this.#loadedVersion) onChange()
    }
    watchFile(this.path, { interval: this.watchIntervalMs, persistent: false }, listener)
    // watchFile only reports differences between its own polls: check once against the load too.
    stat(this.path).then(listener, () => {})
    return () => unwatchFile(this.path, listener)
  }

  async close(): Promise<void> {
    unwatchFile(this.path)
  }
}

const versionOf = (s: { mtimeMs: number; size: number }) => `${s.mtimeMs}:${s.size}`

type JsonResult = { ok: true; value: unknown } | { ok: false; error: string }
function tryJson(text: string): JsonResult {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (err) {
    return { ok: false, error: (err as Error).message }
  }
}
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
