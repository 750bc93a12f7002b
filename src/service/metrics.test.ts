/**
 * Process metrics belong to the service that started them: closing it stops the GC observer and the
 * event-loop monitor (prom-client's collectDefaultMetrics gives no way to), so services created and
 * closed in one process (tests, embedders) leave nothing running.
 */
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { loadConfig } from '../config.js'
import { loadInProcess } from '../core/snapshots/load-snapshot.js'
import { send } from '../../test/support/in-process.js'
import { createService } from './service.js'

const SMALL_FIXTURE = new URL('../../test/fixtures/records.small.json', import.meta.url).pathname

/** Follows every PerformanceObserver and event-loop-delay monitor in the process, whoever starts it. */
function watchObservers() {
  const observing = new Set<object>()
  const monitoring = new Set<object>()
  const follow = <T extends object>(proto: T, start: keyof T, stop: keyof T, live: Set<object>) => {
    const [begin, end] = [
      proto[start] as (...args: unknown[]) => unknown,
      proto[stop] as (...args: unknown[]) => unknown,
    ]
    vi.spyOn(proto, start as never).mockImplementation(function (this: object, ...args: unknown[]) {
      live.add(this)
      return begin.apply(this, args)
    } as never)
    vi.spyOn(proto, stop as never).mockImplementation(function (this: object, ...args: unknown[]) {
      live.delete(this)
      return end.apply(this, args)
    } as never)
  }
  follow(PerformanceObserver.prototype, 'observe', 'disconnect', observing)
  const probe = monitorEventLoopDelay()
  follow(
    Object.getPrototypeOf(probe) as { enable(): boolean; disable(): boolean },
    'enable',
    'disable',
    monitoring,
  )
  return { observers: () => observing.size, monitors: () => monitoring.size }
}

/** Resources (handles, timers, requests) by kind, and those of `now` that `before` did not have. */
const countByKind = (kinds: string[]) =>
  kinds.reduce((counts, kind) => counts.set(kind, (counts.get(kind) ?? 0) + 1), new Map<string, number>())
function added(before: Map<string, number>): string[] {
  const now = countByKind(process.getActiveResourcesInfo())
  return [...now]
    .filter(([kind, n]) => n > (before.get(kind) ?? 0))
    .map(([kind, n]) => `${kind} ×${n - (before.get(kind) ?? 0)}`)
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('service metrics', () => {
  it('two services created and closed leave no observer, monitor or handle behind', async () => {
    const watched = watchObservers()
    const before = countByKind(process.getActiveResourcesInfo())
    const config = loadConfig({ RECORDS_FILE: SMALL_FIXTURE, LOG_LEVEL: 'silent' })
    // One builds in its threads, as the service does, so that their ending is counted too; the other
    // in-process, which saves a thread's start (a second or two, loading the sources through tsx).
    const first = await createService(config, { load: loadInProcess })
    const second = await createService(config)
    // Each service observes for itself while it runs…
    expect({ observers: watched.observers(), monitors: watched.monitors() }).toEqual({
      observers: 2,
      monitors: 2,
    })
    const scraped = await send(second.app, { target: '/metrics' })
    expect(scraped.text).toMatch(/^# TYPE reference_records_nodejs_gc_duration_seconds histogram$/m)
    expect(scraped.text).toMatch(/^reference_records_nodejs_eventloop_lag_p99_seconds /m)
    await first.close()
    expect({ observers: watched.observers(), monitors: watched.monitors() }).toEqual({
      observers: 1,
      monitors: 1,
    })
    await second.close()
    // …and nothing of theirs is left once both are closed.
    expect({ observers: watched.observers(), monitors: watched.monitors() }).toEqual({
      observers: 0,
      monitors: 0,
    })
    // Work already under way when close() returned (a scrape's setImmediate, a stat in flight) may take a moment to end.
    for (let tries = 0; tries < 100 && added(before).length > 0; tries++)
      await new Promise((resolve) => setTimeout(resolve, 20))
    expect(added(before)).toEqual([])
    // The second service's build threads load the sources through tsx: 10 s at a load average of 20.
  }, 30_000)
})
