/**
 * Node's process metrics (CPU, memory, file descriptors, handles, heap, GC, event loop) for one
 * service, stopped with it.
 *
 * Why not `collectDefaultMetrics`: prom-client 15 starts a GC PerformanceObserver and an event-loop
 * delay histogram there and returns nothing to stop them with, so every service created in a process
 * (tests create dozens) left two observers running for good. The collectors that only read when
 * scraped are prom-client's own, called one by one (the version is pinned exactly in package.json);
 * the two that observe all the time are written here, with prom-client's names, help texts and
 * buckets, so /metrics reads as before, and `stop()` ends them.
 */
import { PerformanceObserver, constants, monitorEventLoopDelay } from 'node:perf_hooks'
import { Gauge, Histogram, Registry } from 'prom-client'
import heapSizeAndUsed from 'prom-client/lib/metrics/heapSizeAndUsed.js'
import heapSpacesSizeAndUsed from 'prom-client/lib/metrics/heapSpacesSizeAndUsed.js'
import osMemoryHeap from 'prom-client/lib/metrics/osMemoryHeap.js'
import processCpuTotal from 'prom-client/lib/metrics/processCpuTotal.js'
import processHandles from 'prom-client/lib/metrics/processHandles.js'
import processMaxFileDescriptors from 'prom-client/lib/metrics/processMaxFileDescriptors.js'
import processOpenFileDescriptors from 'prom-client/lib/metrics/processOpenFileDescriptors.js'
import processRequests from 'prom-client/lib/metrics/processRequests.js'
import processResources from 'prom-client/lib/metrics/processResources.js'
import processStartTime from 'prom-client/lib/metrics/processStartTime.js'
import version from 'prom-client/lib/metrics/version.js'

export type ProcessMetrics = {
  registry: Registry
  /** Ends the GC observer and the event-loop monitor, and empties the registry. */
  stop(): void
}

// prom-client's defaults.
const GC_BUCKETS = [0.001, 0.01, 0.1, 1, 2, 5]
const EVENT_LOOP_RESOLUTION_MS = 10
const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
}

export function startProcessMetrics(prefix: string): ProcessMetrics {
  const registry = new Registry()
  const config = { prefix }
  // In collectDefaultMetrics' order, so the exposition keeps its order too.
  processCpuTotal(registry, config)
  processStartTime(registry, config)
  osMemoryHeap(registry, config)
  processOpenFileDescriptors(registry, config)
  processMaxFileDescriptors(registry, config)
  const stopEventLoop = eventLoopLag(registry, prefix)
  if (typeof process.getActiveResourcesInfo === 'function') processResources(registry, config)
  processHandles(registry, config)
  processRequests(registry, config)
  heapSizeAndUsed(registry, config)
  heapSpacesSizeAndUsed(registry, config)
  version(registry, config)
  const stopGc = gcDurations(registry, prefix)
  return {
    registry,
    stop() {
      stopGc()
      stopEventLoop()
      registry.clear()
    },
  }
}

function gcDurations(registry: Registry, prefix: string): () => void {
  const durations = new Histogram({
    name: `${prefix}nodejs_gc_duration_seconds`,
    help: 'Garbage collection duration by kind, one of major, minor, incremental or weakcb.',
    labelNames: ['kind'],
    enableExemplars: false,
    buckets: GC_BUCKETS,
    registers: [registry],
  })
  const observer = new PerformanceObserver((list) => {
    const entry = list.getEntries()[0] as PerformanceEntry & { detail?: { kind?: number } }
    durations.observe({ kind: GC_KINDS[entry.detail?.kind ?? -1] }, entry.duration / 1000)
  })
  observer.observe({ entryTypes: ['gc'] })
  return () => observer.disconnect()
}

function eventLoopLag(registry: Registry, prefix: string): () => void {
  const delays = monitorEventLoopDelay({ resolution: EVENT_LOOP_RESOLUTION_MS })
  delays.enable()
  const gauge = (name: string, help: string, aggregator: 'average' | 'min' | 'max', collect?: () => void) =>
    new Gauge({
      name: `${prefix}nodejs_eventloop_${name}`,
      help,
      aggregator,
      registers: [registry],
      ...(collect === undefined ? {} : { collect }),
    })
  // As prom-client: the lag gauge is set once the loop gets round to it, so a scrape shows the previous one's.
  const reportLag = (start: [number, number]) => {
    const [seconds, nanoseconds] = process.hrtime(start)
    lag.set(seconds + nanoseconds / 1e9)
  }
  const lag = gauge('lag_seconds', 'Lag of event loop in seconds.', 'average', () => {
    setImmediate(reportLag, process.hrtime())
    min.set(delays.min / 1e9)
    max.set(delays.max / 1e9)
    mean.set(delays.mean / 1e9)
    stddev.set(delays.stddev / 1e9)
    p50.set(delays.percentile(50) / 1e9)
    p90.set(delays.percentile(90) / 1e9)
    p99.set(delays.percentile(99) / 1e9)
    delays.reset()
  })
  const min = gauge('lag_min_seconds', 'The minimum recorded event loop delay.', 'min')
  const max = gauge('lag_max_seconds', 'The maximum recorded event loop delay.', 'max')
  const mean = gauge('lag_mean_seconds', 'The mean of the recorded event loop delays.', 'average')
  const stddev = gauge(
    'lag_stddev_seconds',
    'The standard deviation of the recorded event loop delays.',
    'average',
  )
  const p50 = gauge('lag_p50_seconds', 'The 50th percentile of the recorded event loop delays.', 'average')
  const p90 = gauge('lag_p90_seconds', 'The 90th percentile of the recorded event loop delays.', 'average')
  const p99 = gauge('lag_p99_seconds', 'The 99th percentile of the recorded event loop delays.', 'average')
  return () => delays.disable()
}
