/**
 * `sync`: keeps a local NDJSON mirror of the records up to date (Node only: it writes files). The
 * first run downloads every record; later runs read the change feed from the publication the mirror
 * holds and apply it (additions and edits read again one by one, removals deleted), or download the
 * snapshot again when applying the changes would take more requests than `downloadAbove`. The result is
 * checked against the publication's checksum before it replaces anything, and it replaces the
 * mirror by a rename, so the mirror is always a whole publication: the one before or the one after.
 *
 * The mirror: `DIR/facts.ndjson`, one record per line in id order (its SHA-256 is the publication's
 * checksum, so `sha256sum` verifies it), and `DIR/sync.json`, the publication it holds.
 */
import { downloadBound, type RecordsClient } from './client.js'
import { ChangesGoneError, NotFoundError, RecordsClientError, UnexpectedResponseError } from './errors.js'
import type { RequestOptions } from './options.js'
import type { ChangeFeed, Fact } from './wire.js'

export const MIRROR_FILE = 'facts.ndjson'
export const STATE_FILE = 'sync.json'

export type SyncReport = {
  /** download: every record read; changes: the feed applied; current: nothing had changed. */
  mode: 'download' | 'changes' | 'current'
  /** Why a mirror that existed was downloaded again. */
  reason?: string
  publication: string
  checksum: string
  records: number
  added: number
  changed: number
  removed: number
}

/** What `sync` is doing, reported as it goes (to draw a progress bar). */
export type SyncProgress =
  /** Records of the download received so far, of about `total` (the catalogue's count). */
  | { phase: 'download'; done: number; total: number }
  /** Pages of the change feed read, and the changes they held. */
  | { phase: 'changes'; done: number; changes: number }
  /** Changed records read again, of `total`. */
  | { phase: 'records'; done: number; total: number }

export type SyncOptions = RequestOptions & {
  /** Told why a full download replaces applying the feed (a since too old, many changes, a checksum that differs). */
  onDownload?: (reason: string) => void
  /** Told what is done, every few hundred records of a download, every page of the feed, every record read. */
  onProgress?: (progress: SyncProgress) => void
  /**
   * Applying the feed costs one request per page and one per record added or changed; above this
   * many requests, the snapshot is downloaded instead (one request, plus the catalogue). Default
   * `defaultDownloadAbove(records)`.
   */
  downloadAbove?: number
}

/** Changes read from the feed per request: the most the API gives. */
const FEED_PAGE = 1000
/** Download progress is reported every this many records. */
const PROGRESS_EVERY = 500

/**
 * The default `downloadAbove` for a mirror of `records`: 1 % of them, at least 10 and at most 100
 * requests. Under 10, reading costs a few seconds of quota, less than the download's bytes; past
 * 1 %, the download's bytes are less than a hundred times what the reads fetch; and past 100 (a
 * minute of the 120-a-minute quota, and as long at the paced rate), the download is quicker even at
 * 1 000 000 records (1.66 GB).
 */
export const defaultDownloadAbove = (records: number): number =>
  Math.min(100, Math.max(10, Math.ceil(records / 100)))

type State = { format: 1; base_url: string; publication: string; checksum: string; records: number }

// Node's modules, loaded only when sync runs: the client's browser bundle must not reference them.
type NodeFs = {
  mkdir(path: string, options: { recursive: true }): Promise<unknown>
  readFile(path: string, encoding: 'utf8'): Promise<string>
  writeFile(path: string, data: string): Promise<void>
  rename(from: string, to: string): Promise<void>
  rm(path: string, options: { force: true }): Promise<void>
}
type Sha256 = { update(data: string): Sha256; digest(encoding: 'hex'): string }
type NodeCrypto = { createHash(algorithm: 'sha256'): Sha256 }
const load = async <T>(name: string): Promise<T> => (await import(/* @vite-ignore */ name)) as T

type Mirror = Map<string, string>
const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** The mirror's text: its lines in id order, each followed by "\n". */
function mirrorText(mirror: Mirror): string {
  return [...mirror.keys()]
    .sort(compareIds)
    .map((id) => `${mirror.get(id)!}\n`)
    .join('')
}

/**
 * Brings the mirror in `dir` up to date with the service `client` reads; creates it when absent.
 * @example
 * const report = await sync(new RecordsClient({ baseUrl: 'https://records.example.org/api/v1' }), './mirror')
 */
export async function sync(
  client: RecordsClient,
  dir: string,
  options: SyncOptions = {},
): Promise<SyncReport> {
  const { signal, maxRetries } = options
  const requestOptions: RequestOptions = {
    ...(signal === undefined ? {} : { signal }),
    ...(maxRetries === undefined ? {} : { maxRetries }),
  }
  if (
    options.downloadAbove !== undefined &&
    (!Number.isSafeInteger(options.downloadAbove) || options.downloadAbove < 0)
  )
    throw new TypeError(`sync: downloadAbove must be a whole number ≥ 0, got ${options.downloadAbove}`)
  const fs = await load<NodeFs>('node:fs/promises')
  const { createHash } = await load<NodeCrypto>('node:crypto')
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
  const path = (name: string) => `${dir.replace(/\/+$/, '')}/${name}`

  /** Writes beside, then renames: the mirror first, then the state that names it. */
  const commit = async (text: string, state: State) => {
    await fs.mkdir(dir, { recursive: true })
    const tmp = (name: string) => `${path(name)}.${Date.now()}.tmp`
    const [mirrorTmp, stateTmp] = [tmp(MIRROR_FILE), tmp(STATE_FILE)]
    try {
      await fs.writeFile(mirrorTmp, text)
      await fs.writeFile(stateTmp, `${JSON.stringify(state, null, 2)}\n`)
      await fs.rename(mirrorTmp, path(MIRROR_FILE))
      // Were the process stopped here, the state would not match the mirror's checksum: the next run downloads again.
      await fs.rename(stateTmp, path(STATE_FILE))
    } finally {
      await fs.rm(mirrorTmp, { force: true })
      await fs.rm(stateTmp, { force: true })
    }
  }

  const download = async (reason: string | undefined): Promise<SyncReport> => {
    if (reason !== undefined) options.onDownload?.(reason)
    const catalogue = await client.catalogue(requestOptions)
    const href: unknown = catalogue?.links?.download
    if (typeof href !== 'string')
      throw new RecordsClientError(
        `${client.baseUrl} offers no download (its catalogue has no links.download)`,
      )
    const total: unknown = catalogue.records?.total
    const snapshot = await client.snapshot(href, {
      ...requestOptions,
      ...(Number.isSafeInteger(total) ? { maxRecords: downloadBound(total as number) } : {}),
    })
    if (snapshot.publication === undefined || snapshot.checksum === undefined)
      throw new RecordsClientError(
        `${href} carries no X-Publication-Id or X-Records-Checksum: this service has no change feed to follow`,
      )
    const mirror: Mirror = new Map()
    let line = 0
    const expected = Number.isSafeInteger(total) ? (total as number) : 0
    for await (const record of snapshot.records) {
      line++
      if (typeof record.id !== 'string' || record.id === '')
        throw new UnexpectedResponseError(
          200,
          'invalid_response',
          `${href}: record ${line} of the download has no id (a string); nothing written`,
        )
      mirror.set(record.id, JSON.stringify(record))
      if (line % PROGRESS_EVERY === 0)
        options.onProgress?.({ phase: 'download', done: line, total: Math.max(expected, line) })
    }
    options.onProgress?.({ phase: 'download', done: line, total: line })
    const text = mirrorText(mirror)
    if (sha256(text) !== snapshot.checksum)
      throw new RecordsClientError(
        `the download of publication ${snapshot.publication} does not match its checksum ${snapshot.checksum}; nothing written, retry`,
      )
    await commit(text, stateOf(snapshot.publication, snapshot.checksum, mirror.size))
    const report = { publication: snapshot.publication, checksum: snapshot.checksum, records: mirror.size }
    return {
      mode: 'download',
      ...(reason === undefined ? {} : { reason }),
      ...report,
      added: mirror.size,
      changed: 0,
      removed: 0,
    }
  }

  const stateOf = (publication: string, checksum: string, records: number): State => ({
    format: 1,
    base_url: client.baseUrl,
    publication,
    checksum,
    records,
  })

  const state = await readState(fs, path(STATE_FILE))
  if (state === undefined) return download(undefined)
  if (state.base_url !== client.baseUrl) return download(`the mirror was made from ${state.base_url}`)
  const text = await fs.readFile(path(MIRROR_FILE), 'utf8').catch(() => undefined)
  if (text === undefined || sha256(text) !== state.checksum)
    return download(`${MIRROR_FILE} does not match the checksum its state records`)
  const base: Mirror = new Map(
    text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => [(JSON.parse(line) as Fact).id, line]),
  )

  const downloadAbove = options.downloadAbove ?? defaultDownloadAbove(base.size)
  const manyChanges = (requests: number) =>
    `applying the changes would take ${requests} requests or more, over downloadAbove (${downloadAbove}); one download does`

  // A publication landing while the feed is applied makes the result differ from the checksum: read again from the same point.
  for (let attempt = 0; attempt < 3; attempt++) {
    let latest: ChangeFeed['publication']
    const touched = new Map<string, 'added' | 'changed' | 'removed'>()
    /** Records the changes so far would have to read: the ids whose last change is not a removal. */
    let reads = 0
    let pages = 0
    let changes = 0
    try {
      const cursors = new Set<string>()
      let page = checkFeedPage(
        await client.changes({ since: state.publication, limit: FEED_PAGE }, requestOptions),
        1,
      )
      for (;;) {
        pages++
        // The last change of a record decides: added then removed is removed, removed then added is read again.
        for (const change of page.changes) {
          const before = touched.get(change.id)
          if (before !== undefined && before !== 'removed') reads--
          if (change.change !== 'removed') reads++
          touched.set(change.id, change.change)
        }
        changes += page.changes.length
        latest = page.publication
        options.onProgress?.({ phase: 'changes', done: pages, changes })
        if (page.next === null) break
        // A feed that does not move on would be followed forever: an error, whatever the server says next.
        if (cursors.has(page.next) || page.changes.length === 0)
          throw new UnexpectedResponseError(
            200,
            'invalid_response',
            `the change feed of ${client.baseUrl} does not advance: page ${pages} ${
              page.changes.length === 0 ? 'holds no change but' : 'gives again the cursor'
            } "next": ${JSON.stringify(page.next).slice(0, 80)}; nothing written`,
          )
        cursors.add(page.next)
        // Past the threshold, reading on (and then each record) costs more than the download.
        if (pages + reads > downloadAbove) return download(manyChanges(pages + reads))
        page = checkFeedPage(
          await client.changes({ cursor: page.next, limit: FEED_PAGE }, requestOptions),
          pages + 1,
        )
      }
    } catch (err) {
      if (err instanceof ChangesGoneError)
        return download(`the service no longer keeps the changes since ${state.publication}`)
      throw err
    }
    if (latest.id === state.publication && touched.size === 0)
      return {
        mode: 'current',
        publication: state.publication,
        checksum: state.checksum,
        records: base.size,
        added: 0,
        changed: 0,
        removed: 0,
      }
    if (pages + reads > downloadAbove) return download(manyChanges(pages + reads))
    const mirror: Mirror = new Map(base)
    const counts = { added: 0, changed: 0, removed: 0 }
    let read = 0
    for (const [id, change] of touched) {
      let record: Fact | undefined
      if (change !== 'removed') {
        record = await client.get(id, requestOptions).catch((err: unknown) => {
          if (err instanceof NotFoundError) return undefined // removed by a later publication
          throw err
        })
        options.onProgress?.({ phase: 'records', done: ++read, total: reads })
      }
      if (record === undefined) {
        if (mirror.delete(id)) counts.removed++
      } else {
        counts[mirror.has(id) ? 'changed' : 'added']++
        mirror.set(id, JSON.stringify(record))
      }
    }
    const next = mirrorText(mirror)
    if (sha256(next) === latest.checksum) {
      await commit(next, stateOf(latest.id, latest.checksum, mirror.size))
      return {
        mode: 'changes',
        publication: latest.id,
        checksum: latest.checksum,
        records: mirror.size,
        ...counts,
      }
    }
  }
  return download("the changes applied did not give the publication's checksum three times")
}

const CHANGE_KINDS: ReadonlySet<unknown> = new Set(['added', 'changed', 'removed'])

/**
 * Page `n` of the feed as the contract has it, or an error naming the first field that is not
 * (a malformed page must never crash the loop, nor be applied).
 */
function checkFeedPage(page: unknown, n: number): ChangeFeed {
  const fail = (field: string, must: string): never => {
    throw new UnexpectedResponseError(
      200,
      'invalid_response',
      `page ${n} of the change feed is malformed: "${field}" must be ${must}; nothing written`,
    )
  }
  if (typeof page !== 'object' || page === null || Array.isArray(page)) fail('(the page)', 'a JSON object')
  const { publication, changes, next } = page as Record<string, unknown>
  if (typeof publication !== 'object' || publication === null) fail('publication', 'an object')
  const { id, checksum } = publication as Record<string, unknown>
  if (typeof id !== 'string' || id === '') fail('publication.id', 'a non-empty string')
  if (typeof checksum !== 'string' || !/^[0-9a-f]{64}$/.test(checksum))
    fail('publication.checksum', 'a SHA-256 in hex')
  if (!Array.isArray(changes)) fail('changes', 'an array')
  ;(changes as unknown[]).forEach((change, i) => {
    if (typeof change !== 'object' || change === null) fail(`changes[${i}]`, 'an object')
    const { id: changeId, change: kind } = change as Record<string, unknown>
    if (typeof changeId !== 'string' || changeId === '') fail(`changes[${i}].id`, 'a non-empty string')
    if (!CHANGE_KINDS.has(kind)) fail(`changes[${i}].change`, '"added", "changed" or "removed"')
  })
  if (next !== null && (typeof next !== 'string' || next === '')) fail('next', 'a non-empty string or null')
  return page as ChangeFeed
}

async function readState(fs: NodeFs, file: string): Promise<State | undefined> {
  try {
    const state = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<State>
    return state.format === 1 &&
      typeof state.base_url === 'string' &&
      typeof state.publication === 'string' &&
      typeof state.checksum === 'string'
      ? (state as State)
      : undefined
  } catch {
    return undefined
  }
}
