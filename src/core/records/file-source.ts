/**
 * The embedded default source: a records file on disk, in one of three forms —
 * a JSON array of records, NDJSON (one record per line), or a snapshot object
 * `{"about": "…", "published_at": "…", "records": [ … ]}` that carries its publication date.
 */
import { open, readFile, stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { checkUtf8, detectFormat, parseDocument, parseNdjsonLine, readError } from './file-format.js'
import { forEachLine, LineTooLongError } from './ndjson-lines.js'
import { RECORD_BOUNDS } from './record-bounds.js'
import { lineBreaksBefore, splitLines, type ByteRange } from './ndjson-parts.js'
import type { RawRecord } from './validate.js'
import {
  SourceUnavailableError,
  collectRecords,
  type ReadInfo,
  type RecordBatch,
  type RecordConsumer,
  type RecordSource,
  type RecordText,
  type SourceSpec,
} from './source.js'

/**
 * The largest JSON document (an array, or `{"records": [...]}`) read whole: V8 cannot hold a string
 * over ~512 MiB of UTF-16, so a larger document would fail halfway; NDJSON has no such bound.
 */
const MAX_DOCUMENT_BYTES = 400 * 2 ** 20

/**
 * The longest NDJSON line read: a record holds at most RECORD_BOUNDS.totalCharacters characters of
 * strings, each at most 6 bytes as JSON (`\uXXXX`), plus its structure. A longer line is refused
 * before it is held whole (a 200 MB record once ran a replica out of memory).
 */
const MAX_LINE_BYTES = 8 * RECORD_BOUNDS.totalCharacters

/** How often the file's mtime and size are polled; polling survives editors and atomic renames that break fs.watch. */
const WATCH_INTERVAL_MS = 2_000

/**
 * Calls `poll` every `intervalMs` until the returned function is called; `poll` resolves when that
 * look is done (tests pass a poller they drive by hand, awaiting each look).
 */
export type Poller = (poll: () => Promise<void>, intervalMs: number) => () => void

/** setInterval, without keeping the process alive for it. */
const intervalPoller: Poller = (poll, intervalMs) => {
  const timer = setInterval(() => void poll(), intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}

export class FileRecordSource implements RecordSource {
  readonly origin: string
  constructor(
    private readonly path: string,
    private readonly watchIntervalMs = WATCH_INTERVAL_MS,
    private readonly poller: Poller = intervalPoller,
    private readonly maxDocumentBytes = MAX_DOCUMENT_BYTES,
  ) {
    // Absolute, so a message names the file whatever the directory the service was started from.
    this.origin = `file:${resolve(path)}`
  }

  /** The file's mtime and size when the last load began: what "changed" is measured against. */
  #loadedVersion = ''
  /** Set on a source that reads only some lines of an NDJSON file (one part of a parallel build). */
  #range: ByteRange | undefined

  /** The same file, read only in `range` (whole lines of an NDJSON file), its lines numbered as in the whole file. */
  static part(path: string, range: ByteRange): FileRecordSource {
    const source = new FileRecordSource(path)
    source.#range = range
    return source
  }

  /** A description of this source a worker thread can open it from. */
  spec(): SourceSpec {
    return this.#range === undefined
      ? { type: 'file', path: this.path }
      : { type: 'file', path: this.path, range: this.#range }
  }

  /**
   * Up to `parts` sources reading the file's lines in consecutive ranges, for a build on several
   * threads; undefined when the file cannot be shared that way (a JSON document is parsed whole)
   * or is too small to gain from it.
   */
  async split(parts: number, minPartBytes?: number): Promise<SourceSpec[] | undefined> {
    if (parts < 2 || this.#range !== undefined) return undefined
    try {
      if (!(await this.isNdjson())) return undefined
      const ranges = await splitLines(this.path, (await stat(this.path)).size, parts, minPartBytes)
      return ranges.length < 2
        ? undefined
        : ranges.map((range) => FileRecordSource.part(this.path, range).spec())
    } catch {
      return undefined // a file that cannot be read is read whole, and `read` says why it cannot
    }
  }

  /** The file's size (a part's, for a part); undefined when it cannot be read (`read` says why). */
  async sizeHint(): Promise<{ bytes: number } | undefined> {
    if (this.#range !== undefined) return { bytes: this.#range.end - this.#range.start }
    return stat(this.path).then(
      (s) => ({ bytes: s.size }),
      () => undefined,
    )
  }

  /** Told what a read made elsewhere (a worker) saw, as if this source had read it. */
  noteRead(info: ReadInfo): void {
    if (info.version !== undefined) this.#loadedVersion = info.version
  }

  /** What the last read saw of the file, even when it failed (so a refused file is not read again every poll). */
  partialRead(): ReadInfo {
    return { version: this.#loadedVersion }
  }

  async load(): Promise<RecordBatch> {
    return collectRecords(this)
  }

  async read(consume: RecordConsumer): Promise<ReadInfo> {
    try {
      const before = await stat(this.path)
      this.#loadedVersion = versionOf(before)
      // NDJSON is read line by line: a whole large file would not fit in one string (V8 caps strings
      // at ~512 MiB, about 330 000 records), and lines need not all be in memory at once.
      let publishedAt: string | undefined
      if (this.#range !== undefined || (await this.isNdjson())) await this.readNdjson(consume)
      else {
        if (before.size > this.maxDocumentBytes) {
          throw new Error(
            `records: ${this.origin}: a JSON document of ${mebibytes(before.size)} MiB is more than is read whole ` +
              `(${mebibytes(this.maxDocumentBytes)} MiB, below V8's string limit); write the records as NDJSON, one record per line, which is read line by line at any size`,
          )
        }
        const document = await this.readWhole()
        for (const { value, where } of document.raw) consume(value, where)
        publishedAt = document.publishedAt
      }
      const after = await stat(this.path)
      // Written to while we read it: what we read may be half of each version. The next stable poll reloads it.
      if (versionOf(after) !== this.#loadedVersion)
        throw new SourceUnavailableError(
          `records: ${this.origin}: the file changed while it was read; nothing loaded`,
        )
      return { publishedAt: publishedAt ?? after.mtime.toISOString(), version: this.#loadedVersion }
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code === undefined || (err as Error).message.startsWith('records:')) throw err
      throw Object.assign(readError(this.origin, code), { cause: err })
    }
  }

  /** The format, told once from the first MiB (see detectFormat): NDJSON is streamed, anything else parsed whole. */
  private async isNdjson(): Promise<boolean> {
    const file = await open(this.path)
    try {
      const { buffer, bytesRead } = await file.read({ buffer: Buffer.alloc(1 << 20), position: 0 })
      return detectFormat(buffer.subarray(0, bytesRead).toString('utf8')) === 'ndjson'
    } finally {
      await file.close()
    }
  }

  private async readWhole(): Promise<{ raw: RawRecord[]; publishedAt?: string }> {
    const bytes = await readFile(this.path)
    checkUtf8(this.origin, bytes)
    return parseDocument(this.origin, bytes.toString('utf8').replace(/^\uFEFF/, ''))
  }

  private async readNdjson(consume: RecordConsumer): Promise<void> {
    const range = this.#range
    let number = range === undefined || range.start === 0 ? 0 : await lineBreaksBefore(this.path, range.start)
    // One object for every line (the consumer reads it during its call only).
    const text: RecordText = { json: '', bytes: undefined, start: 0, end: 0 }
    const first = number
    await forEachLine(
      this.path,
      range,
      (line, bytes, start, end) => {
        const json = number === 0 ? line.replace(/^\uFEFF/, '') : line
        checkUtf8(this.origin, bytes.subarray(start, end), ++number)
        const record = parseNdjsonLine(this.origin, json, number)
        if (record === undefined) return
        text.json = json
        // A first line that began with a byte-order mark is not its bytes: encoded again if kept.
        text.bytes = json === line ? bytes : undefined
        text.start = start
        text.end = end
        consume(record.value, record.where, text)
      },
      undefined,
      MAX_LINE_BYTES,
    ).catch((err: unknown) => {
      if (!(err instanceof LineTooLongError)) throw err
      throw new Error(
        `records: ${this.origin}: line ${first + err.lineIndex + 1}: longer than ${mebibytes(err.maxBytes)} MiB, more than a record may hold (${RECORD_BOUNDS.totalCharacters} characters); nothing loaded`,
      )
    })
  }

  /** Pollers this source started: each is stopped on close. */
  readonly #pollers = new Set<() => void>()

  /**
   * Polls the file's mtime and size. A change is signalled only once the file is stable: different
   * from what the last load saw, and unchanged since the previous poll. A writer that writes the file
   * in place, in several steps, changes it between polls until it is done, so a file caught
   * mid-write (an NDJSON file cut at a line boundary is valid, only shorter) is never loaded. Writers
   * that pause longer than a poll interval mid-write can still be caught: publish by atomic rename.
   */
  watch(onChange: () => void): () => void {
    let previous: string | undefined
    let polling: Promise<void> | undefined
    const poll = (): Promise<void> => {
      if (polling !== undefined) return polling // a slow stat must not overlap the next one
      return (polling = stat(this.path)
        .then(
          (current) => {
            const version = versionOf(current)
            // Compared with what the last load saw (not the previous poll alone): a change made between
            // the load and the first poll is still seen, and a refused file is not reloaded every poll.
            if (version !== this.#loadedVersion && version === previous) onChange()
            previous = version
          },
          () => void (previous = undefined), // missing for now (mid-rename): look again at the next poll
        )
        .finally(() => (polling = undefined)))
    }
    const stop = this.poller(poll, this.watchIntervalMs)
    void poll() // the first look, so the next poll can already confirm a change made before watching
    this.#pollers.add(stop)
    return () => {
      stop()
      this.#pollers.delete(stop)
    }
  }

  async close(): Promise<void> {
    for (const stop of this.#pollers) stop()
    this.#pollers.clear()
  }
}

const mebibytes = (bytes: number) => +(bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 3 : 0)

const versionOf = (s: { mtimeMs: number; size: number }) => `${s.mtimeMs}:${s.size}`
