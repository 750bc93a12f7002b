/**
 * Records from PostgreSQL: the current published snapshot, shared by every replica. `load()` streams
 * the current snapshot and validates it whole (schema, record count, checksum); `watch()` signals a
 * change whenever the current publication differs from the last one loaded or refused (see
 * PublicationWatcher: LISTEN, plus checks on reconnection and periodically). Until something is
 * published there is nothing to load, and nothing is signalled: the service starts anyway and
 * answers `unavailable` until the first publication.
 */
import pg from 'pg'
import type { PublicationChanges, RecordChange } from '../changes/change-log.js'
import type { Log } from '../log.js'
import { readChangeHistory } from './postgres/changes.js'
import { clientConfig, describeDatabase } from './postgres/connection.js'
import {
  DEFAULT_WATCHER_TIMING,
  PublicationWatcher,
  type WatcherTiming,
} from './postgres/publication-watcher.js'
import {
  currentPublication,
  readCurrentSnapshot,
  type Publication,
  type ReadSnapshot,
} from './postgres/snapshot-reader.js'
import { isUndefinedTable } from './postgres/tables.js'
import {
  SourceUnavailableError,
  collectRecords,
  type ReadInfo,
  type RecordBatch,
  type RecordConsumer,
  type RecordSource,
  type SourceSpec,
} from './source.js'

export type PostgresSourceOptions = {
  log: Log
  /** Names this process's connections in pg_stat_activity. Default "reference-records replica". */
  applicationName?: string
  timing?: Partial<WatcherTiming & { readStepTimeoutMs: number; batchRows: number }>
}

/** What the service shows about the source (metrics, logs). */
export type SourceConnectionListener = (connected: boolean) => void

export class PostgresRecordSource implements RecordSource {
  readonly origin: string
  readonly #pool: pg.Pool
  readonly #watcher: PublicationWatcher
  readonly #readStepTimeoutMs: number
  readonly #batchRows: number
  readonly #connectionListeners = new Set<SourceConnectionListener>()
  #connected = false
  #onChange: (() => void) | undefined
  /** The publication last loaded or refused: a refused one is not loaded again (a transient failure is). */
  #attempted: number | undefined
  /** The publication being read now: a check during a long read must not queue the same load again. */
  #reading: number | undefined
  /** The current publication, as the last check saw it. */
  #latest: number | undefined

  readonly #url: string
  readonly #applicationName: string

  constructor(url: string, options: PostgresSourceOptions) {
    this.origin = describeDatabase(url)
    this.#url = url
    this.#applicationName = options.applicationName ?? 'reference-records replica'
    const config = clientConfig(url, this.#applicationName)
    // Loads never overlap (the follower runs one at a time): one connection, closed when idle.
    this.#pool = new pg.Pool({ ...config, max: 1, idleTimeoutMillis: 10_000 })
    this.#pool.on('error', () => undefined) // an idle connection dropped: the next load opens another
    this.#readStepTimeoutMs = options.timing?.readStepTimeoutMs ?? 60_000
    this.#batchRows = options.timing?.batchRows ?? 1_000
    this.#watcher = new PublicationWatcher({
      newClient: () => new pg.Client(config),
      log: options.log,
      origin: this.origin,
      timing: { ...DEFAULT_WATCHER_TIMING, ...options.timing },
      onCurrent: (id) => {
        this.#latest = id
        if (id !== undefined && id !== this.#attempted && id !== this.#reading) this.#onChange?.()
      },
      onConnection: (connected) => {
        this.#connected = connected
        for (const listener of this.#connectionListeners) listener(connected)
      },
    })
  }

  /** Whether the dedicated LISTEN connection is up. */
  get connected(): boolean {
    return this.#connected
  }

  /** Calls `listener` whenever the LISTEN connection comes up or goes down. */
  onConnection(listener: SourceConnectionListener): () => void {
    this.#connectionListeners.add(listener)
    return () => this.#connectionListeners.delete(listener)
  }

  spec(): SourceSpec {
    return {
      type: 'postgres',
      url: this.#url,
      applicationName: this.#applicationName,
      batchRows: this.#batchRows,
      readStepTimeoutMs: this.#readStepTimeoutMs,
    }
  }

  noteRead(info: ReadInfo): void {
    if (info.publication !== undefined) this.#attempted = info.publication
  }

  partialRead(): ReadInfo {
    return { publication: this.#attempted }
  }

  /**
   * Whether the current publication (as last checked) is one not yet loaded or refused. A read in a
   * worker is not seen here until it ends, so a check during it (the periodic one, when a load of
   * 100 000 records outlasts its period) signals the publication being loaded once more: this is
   * what keeps that signal from loading it a second time.
   */
  isBehind(): boolean {
    return this.#latest !== undefined && this.#latest !== this.#attempted
  }

  /** The current publication's record count; undefined when nothing is published or the database does not answer. */
  async sizeHint(): Promise<{ records: number } | undefined> {
    try {
      const client = await this.#checkOut()
      let failed = false
      try {
        const current = await this.#withDeadline(currentPublication(client))
        return current === undefined ? undefined : { records: current.recordCount }
      } catch {
        failed = true
        return undefined
      } finally {
        client.release(failed)
      }
    } catch {
      return undefined
    }
  }

  async load(): Promise<RecordBatch> {
    return collectRecords(this)
  }

  async read(consume: RecordConsumer): Promise<ReadInfo> {
    let origin = this.origin
    const read = await this.#read((publication) => {
      origin = `${this.origin} snapshot ${publication.snapshotId}`
      // A publication that fails to load is not loaded again (it is refused for good), so remember it now.
      this.#attempted = publication.publicationId
    }, consume)
    const { publication } = read
    this.#attempted = publication.publicationId
    if (read.count !== publication.recordCount) {
      throw new Error(
        `records: ${origin}: ${read.count} records read, ${publication.recordCount} published; nothing loaded`,
      )
    }
    if (read.checksum !== publication.checksum) {
      throw new Error(
        `records: ${origin}: checksum ${read.checksum.slice(0, 12)}… of the records read differs from the published ${publication.checksum.slice(0, 12)}…; nothing loaded`,
      )
    }
    return {
      publishedAt: publication.publishedAt.toISOString(),
      snapshot: { id: publication.snapshotId, publication: publication.publicationId },
      publication: publication.publicationId,
      origin,
    }
  }

  /** Streams the current snapshot; any database failure is "unavailable", to be retried at the next signal. */
  async #read(
    onPublication: (publication: Publication) => void,
    consume: RecordConsumer,
  ): Promise<ReadSnapshot> {
    let client: pg.PoolClient
    try {
      client = await this.#checkOut()
    } catch (err) {
      throw new SourceUnavailableError(
        `records: ${this.origin}: cannot connect (${(err as Error).message})`,
        { cause: err },
      )
    }
    let failure: Error | undefined
    try {
      const read = await readCurrentSnapshot(
        client,
        {
          batchRows: this.#batchRows,
          withDeadline: (step) => this.#withDeadline(step),
          onPublication: (publication) => {
            this.#reading = publication.publicationId
            onPublication(publication)
          },
        },
        consume,
      )
      if (read === undefined)
        throw new SourceUnavailableError(`records: ${this.origin}: nothing published yet`)
      return read
    } catch (err) {
      failure = err as Error
      if (err instanceof SourceUnavailableError) throw err
      if (isUndefinedTable(err))
        throw new SourceUnavailableError(
          `records: ${this.origin}: nothing published yet (no snapshot tables)`,
        )
      throw new SourceUnavailableError(
        `records: ${this.origin}: cannot read the current snapshot (${failure.message})`,
        { cause: err },
      )
    } finally {
      this.#reading = undefined
      // A connection that failed mid-read is destroyed rather than reused.
      client.release(failure !== undefined)
    }
  }

  /**
   * A pooled connection, guarded while it is checked out: the pool listens for errors only on idle
   * connections, and a connection lost during a query emits "Connection terminated unexpectedly"
   * besides failing the query, which would crash the process with no listener. The failed query is
   * what reports it; the guard goes with the release.
   */
  async #checkOut(): Promise<pg.PoolClient> {
    const client = await this.#pool.connect()
    const ignore = () => undefined
    client.on('error', ignore)
    const release = client.release.bind(client)
    client.release = (err?: Error | boolean) => {
      client.removeListener('error', ignore)
      release(err)
    }
    return client
  }

  #withDeadline<T>(step: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${this.#readStepTimeoutMs} ms`)),
        this.#readStepTimeoutMs,
      )
    })
    return Promise.race([step, deadline]).finally(() => clearTimeout(timer))
  }

  /** Differences already computed, by publication: they never change, so each is read once. */
  readonly #changes = new Map<number, readonly RecordChange[]>()

  /** The change feed's history up to `publication` (the one served), at most `keep` publications, oldest first. */
  async changeHistory(publication: number, keep: number): Promise<PublicationChanges[]> {
    const client = await this.#checkOut()
    let failure: unknown
    try {
      return await readChangeHistory(client, publication, keep, this.#changes)
    } catch (err) {
      failure = err
      throw err
    } finally {
      // A connection that failed is destroyed rather than reused.
      client.release(failure !== undefined)
    }
  }

  watch(onChange: () => void): () => void {
    this.#onChange = onChange
    this.#watcher.start()
    return () => {
      this.#onChange = undefined
    }
  }

  async close(): Promise<void> {
    this.#onChange = undefined
    await this.#watcher.stop()
    await this.#pool.end().catch(() => undefined)
  }
}
