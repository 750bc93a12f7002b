/**
 * The embedded default source: a records file on disk, in one of three forms —
 * a JSON array of records, NDJSON (one record per line), or a snapshot object
 * `{"about": "…", "published_at": "…", "records": [ … ]}` that carries its publication date.
 */
import { createReadStream } from 'node:fs'
import { open, readFile, stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { detectFormat, parseDocument, parseNdjsonLine, readError } from './file-format.js'
import { SourceUnavailableError, type RecordBatch, type RecordSource } from './source.js'
import { validateRecords, type RawRecord } from './validate.js'

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
  ) {
    // Absolute, so a message names the file whatever the directory the service was started from.
    this.origin = `file:${resolve(path)}`
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
      const after = await stat(this.path)
      // Written to while we read it: what we read may be half of each version. The next stable poll reloads it.
      if (versionOf(after) !== this.#loadedVersion) throw new SourceUnavailableError(`records: ${this.origin}: the file changed while it was read; nothing loaded`)
      return { records, publishedAt: publishedAt ?? after.mtime.toISOString() }
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
    return parseDocument(this.origin, (await readFile(this.path, 'utf8')).replace(/^\uFEFF/, ''))
  }

  private async readNdjson(): Promise<RawRecord[]> {
    const raw: RawRecord[] = []
    const lines = createInterface({ input: createReadStream(this.path, { encoding: 'utf8' }), crlfDelay: Infinity })
    let number = 0
    for await (const line of lines) {
      const record = parseNdjsonLine(this.origin, number === 0 ? line.replace(/^\uFEFF/, '') : line, ++number)
      if (record !== undefined) raw.push(record)
    }
    return raw
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

const versionOf = (s: { mtimeMs: number; size: number }) => `${s.mtimeMs}:${s.size}`

