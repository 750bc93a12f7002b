/**
 * Counters and histograms counted in plain numbers where requests are answered, and handed to
 * prom-client only when /metrics is scraped. prom-client's labelled `inc()` and `observe()` build a
 * key string from the labels and check them at every call: about 1 µs each on the bench machine
 * (2026-12-01), against some 18 µs of CPU for a whole fast-path answer. A series kept here is an
 * object the caller holds: counting is an increment, observing a bucket search over a few bounds
 * (the series themselves are the HTTP adapter's, http/respond.ts, where most are counted).
 */

export type { CounterCell }
import { Counter, Histogram, type MetricType, type Registry } from 'prom-client'
import { HistogramSeries, type CounterCell } from '../http/respond.js'

type LabelValues<T extends string> = Partial<Record<T, string | number>>
type Exposed<T extends string> = Awaited<ReturnType<Histogram<T>['get']>>

type Config<T extends string> = {
  name: string
  help: string
  labelNames: readonly T[]
  registers: Registry[]
}

/** A prom-client Counter whose series are counted in cells and added to it at each scrape. */
export class TalliedCounter<T extends string> {
  readonly #cells: { labels: LabelValues<T>; cell: CounterCell; reported: number }[] = []

  constructor(config: Config<T>) {
    const cells = this.#cells
    new Counter<T>({
      ...config,
      labelNames: [...config.labelNames],
      collect() {
        // Every cell is exposed once made, at 0 until counted (a series that exists from the start
        // lets rate() see its first increase).
        for (const kept of cells) {
          this.inc(kept.labels, kept.cell.value - kept.reported)
          kept.reported = kept.cell.value
        }
      },
    })
  }

  /** A new series with these labels (the caller keeps it: one per label set). */
  cell(labels: LabelValues<T>): CounterCell {
    const cell = { value: 0 }
    this.#cells.push({ labels, cell, reported: 0 })
    return cell
  }
}

/**
 * A prom-client Histogram whose series are counted in HistogramSeries and read at each scrape,
 * exposed as prom-client exposes its own (`_bucket` with `le`, `_sum`, `_count`).
 */
export class TalliedHistogram<T extends string> extends Histogram<T> {
  readonly #series: { labels: LabelValues<T>; series: HistogramSeries }[] = []
  readonly #bounds: readonly number[]
  readonly #name: string
  readonly #help: string

  constructor(config: Config<T> & { buckets: readonly number[] }) {
    super({ ...config, labelNames: [...config.labelNames], buckets: [...config.buckets] })
    this.#bounds = [...config.buckets].sort((a, b) => a - b)
    this.#name = config.name
    this.#help = config.help
  }

  /** A new series with these labels (the caller keeps it: one per label set). */
  series(labels: LabelValues<T>): HistogramSeries {
    const series = new HistogramSeries(this.#bounds)
    this.#series.push({ labels, series })
    return series
  }

  override async get(): Promise<Exposed<T>> {
    return this.getForPromString()
  }

  /** What the registry prints (it prefers this to `get`, as for prom-client's own histograms). */
  async getForPromString(): Promise<Exposed<T>> {
    const name = this.#name
    const values: Exposed<T>['values'] = []
    // The bucket's bound goes beside the series' labels, as prom-client's own histograms put it.
    const bucket = (labels: LabelValues<T>, le: number | string) =>
      ({ ...labels, le }) as unknown as LabelValues<T>
    for (const { labels, series } of this.#series) {
      let cumulative = 0
      this.#bounds.forEach((bound, i) => {
        cumulative += series.counts[i]!
        values.push({ labels: bucket(labels, bound), value: cumulative, metricName: `${name}_bucket` })
      })
      values.push(
        { labels: bucket(labels, '+Inf'), value: series.count, metricName: `${name}_bucket` },
        { labels, value: series.sum, metricName: `${name}_sum` },
        { labels, value: series.count, metricName: `${name}_count` },
      )
    }
    return {
      name,
      help: this.#help,
      // prom-client's own value (its typings declare a numeric enum it does not export).
      type: 'histogram' as unknown as MetricType,
      values,
      aggregator: 'sum',
      collect: () => undefined,
    }
  }
}
