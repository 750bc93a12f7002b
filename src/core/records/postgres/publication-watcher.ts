/**
 * Tells a replica which publication is current, as soon as it changes, without trusting
 * notifications alone: one dedicated connection LISTENs on the publications channel and, on every
 * notification, on every (re)connection and on a slow periodic check, asks the database for the
 * current publication id. A notification lost while disconnected is therefore caught up at
 * reconnection, and one lost silently within a period. Losing the connection means reconnecting
 * with capped, jittered exponential back-off, forever; the replica keeps serving meanwhile.
 */
import pg from 'pg'
import type { Log } from '../../log.js'
import { currentPublicationId } from './snapshot-reader.js'
import { PUBLICATIONS_CHANNEL, isUndefinedTable } from './tables.js'

export type WatcherTiming = {
  /** The slow periodic check. */
  checkEveryMs: number
  /** First reconnection delay; doubled at each failure up to `maxBackoffMs`. */
  firstBackoffMs: number
  maxBackoffMs: number
  /** Bound on one check's query: past it the connection is presumed dead and replaced. */
  checkTimeoutMs: number
}

export const DEFAULT_WATCHER_TIMING: WatcherTiming = {
  checkEveryMs: 30_000,
  firstBackoffMs: 500,
  maxBackoffMs: 30_000,
  checkTimeoutMs: 10_000,
}

export type WatcherOptions = {
  /** A new, unconnected client for the dedicated connection. */
  newClient: () => pg.Client
  log: Log
  origin: string
  timing: WatcherTiming
  /** The current publication id (undefined: nothing published, or no schema yet), after every check. */
  onCurrent: (publicationId: number | undefined) => void
  /** The dedicated connection came up (true) or was lost (false). */
  onConnection: (connected: boolean) => void
}

/** Delay before reconnection attempt `attempt` (0-based): exponential, capped, ±20 % jitter so replicas do not reconnect in step. */
export function backoffDelay(
  attempt: number,
  timing: Pick<WatcherTiming, 'firstBackoffMs' | 'maxBackoffMs'>,
  random = Math.random,
): number {
  const base = Math.min(timing.maxBackoffMs, timing.firstBackoffMs * 2 ** Math.min(attempt, 30))
  return Math.round(base * (0.8 + 0.4 * random()))
}

export class PublicationWatcher {
  #stopped = false
  #running: Promise<void> | undefined
  /** Ends the current session early (stop, or a check that failed). */
  #endSession: (() => void) | undefined
  #wake: (() => void) | undefined
  #warnedNoSchema = false

  constructor(private readonly options: WatcherOptions) {}

  start(): void {
    this.#running ??= this.#loop()
  }

  async stop(): Promise<void> {
    this.#stopped = true
    this.#endSession?.()
    this.#wake?.()
    await this.#running
  }

  async #loop(): Promise<void> {
    let attempt = 0
    while (!this.#stopped) {
      const wasConnected = await this.#session()
      if (this.#stopped) break
      if (wasConnected) attempt = 0
      const delay = backoffDelay(attempt++, this.options.timing)
      this.options.log.warn(
        { origin: this.options.origin, retryInMs: delay },
        'records source: reconnecting to PostgreSQL',
      )
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay)
        this.#wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
    }
  }

  /** One connection's life; resolves when it is lost (or stopped). True if it got as far as listening. */
  async #session(): Promise<boolean> {
    const client = this.options.newClient()
    let listening = false
    let end!: () => void
    const ended = new Promise<void>((resolve) => (end = resolve))
    this.#endSession = end
    client.on('error', (err) => {
      if (!this.#stopped)
        this.options.log.warn(
          { origin: this.options.origin, problem: err.message },
          'records source: PostgreSQL connection lost',
        )
      end()
    })
    client.on('end', end)
    const check = this.#coalescedCheck(client, end)
    let timer: NodeJS.Timeout | undefined
    try {
      await client.connect()
      client.on('notification', check)
      await client.query(`LISTEN ${PUBLICATIONS_CHANNEL}`)
      listening = true
      this.options.onConnection(true)
      check() // catch up with whatever was published while we were away
      timer = setInterval(check, this.options.timing.checkEveryMs)
      timer.unref()
      await ended
    } catch (err) {
      if (!this.#stopped)
        this.options.log.warn(
          { origin: this.options.origin, problem: (err as Error).message },
          'records source: cannot reach PostgreSQL',
        )
    } finally {
      clearInterval(timer)
      if (listening) this.options.onConnection(false)
      // Not awaited: ending a connection whose peer vanished can take as long as TCP does.
      client.end().catch(() => undefined)
    }
    return listening
  }

  /** A check that never runs twice at once on this connection: a burst of notifications costs at most one more query. */
  #coalescedCheck(client: pg.Client, end: () => void): () => void {
    let running = false
    let again = false
    const run = async () => {
      running = true
      do {
        again = false
        await this.#check(client, end)
      } while (again && !this.#stopped)
      running = false
    }
    return () => {
      if (running) again = true
      else void run()
    }
  }

  /** Asks for the current publication; a failed check ends the session (the connection is presumed dead). */
  async #check(client: pg.Client, end: () => void): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    try {
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${this.options.timing.checkTimeoutMs} ms`)),
          this.options.timing.checkTimeoutMs,
        )
      })
      const id = await Promise.race([currentPublicationId(client), deadline])
      this.options.onCurrent(id)
    } catch (err) {
      if (isUndefinedTable(err)) {
        if (!this.#warnedNoSchema) {
          this.options.log.warn(
            { origin: this.options.origin },
            'records source: no snapshot tables yet (run "reference-records db migrate" or publish); waiting for the first publication',
          )
        }
        this.#warnedNoSchema = true
        this.options.onCurrent(undefined)
        return
      }
      if (!this.#stopped)
        this.options.log.warn(
          { origin: this.options.origin, problem: (err as Error).message },
          'records source: check failed; reconnecting',
        )
      end()
    } finally {
      clearTimeout(timer)
    }
  }
}
