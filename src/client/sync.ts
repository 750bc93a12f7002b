/**
 * `sync`: keeps a local NDJSON mirror of the records up to date (Node only: it writes files). The
 * first run downloads every record; later runs read the change feed from the publication the mirror
 * holds and apply it (additions and edits read again one by one, removals deleted). The result is
 * checked against the publication's checksum before it replaces anything, and it replaces the
 * mirror by a rename, so the mirror is always a whole publication: the one before or the one after.
 *
 * The mirror: `DIR/facts.ndjson`, one record per line in id order (its SHA-256 is the publication's
 * checksum, so `sha256sum` verifies it), and `DIR/sync.json`, the publication it holds.
 */
import type { RecordsClient } from './client.js'
import { ChangesGoneError, NotFoundError, RecordsClientError } from './errors.js'
import type { RequestOptions } from './options.js'
import type { Fact } from './wire.js'

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

export type SyncOptions = RequestOptions & {
  /** Told why a full download replaces applying the feed (a since too old, a checksum that differs). */
  onDownload?: (reason: string) => void
}

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
    const { links } = await client.catalogue(options)
    if (links.download === undefined)
      throw new RecordsClientError(
        `${client.baseUrl} offers no download (its catalogue has no links.download)`,
      )
    const snapshot = await client.snapshot(links.download, options)
    if (snapshot.publication === undefined || snapshot.checksum === undefined)
      throw new RecordsClientError(
        `${links.download} carries no X-Publication-Id or X-Records-Checksum: this service has no change feed to follow`,
      )
    const mirror: Mirror = new Map()
    for await (const record of snapshot.records) mirror.set(record.id, JSON.stringify(record))
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

  // A publication landing while the feed is applied makes the result differ from the checksum: read again from the same point.
  for (let attempt = 0; attempt < 3; attempt++) {
    let latest: { id: string; checksum: string }
    const touched = new Map<string, 'added' | 'changed' | 'removed'>()
    try {
      let page = await client.changes({ since: state.publication }, options)
      for (;;) {
        // The last change of a record decides: added then removed is removed, removed then added is read again.
        for (const change of page.changes) touched.set(change.id, change.change)
        latest = page.publication
        if (page.next === null) break
        page = await client.changes({ cursor: page.next }, options)
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
    const mirror: Mirror = new Map(base)
    const counts = { added: 0, changed: 0, removed: 0 }
    for (const [id, change] of touched) {
      let record: Fact | undefined
      if (change !== 'removed')
        record = await client.get(id, options).catch((err: unknown) => {
          if (err instanceof NotFoundError) return undefined // removed by a later publication
          throw err
        })
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
