/** Small statistics for the bench: medians, ranges, percentiles and same-pass ratios. Pure. */

/** Median of a non-empty list (mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median: empty list')
  const s = [...values].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

/** [min, max] of a non-empty list. */
export function range(values: readonly number[]): [number, number] {
  if (values.length === 0) throw new Error('range: empty list')
  return [Math.min(...values), Math.max(...values)]
}

/**
 * Nearest-rank percentile (p in 0..100) of an ascending list: the smallest value with at least p % of
 * the values at or below it, which is what wrk and HdrHistogram report.
 */
export function percentileSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error('percentile: empty list')
  // p × n / 100 minus a hair: 99.9 % of 1000 is rank 999, not 1000 through float error.
  const rank = Math.ceil((p * sorted.length) / 100 - 1e-9)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!
}

/**
 * Median over passes of `target / reference`, each ratio taken within one pass. Single runs vary
 * 30–50 % on this machine, but two targets measured minutes apart in the same pass drift together,
 * so per-pass ratios vary about ±0.03: this is the figure to compare with a goal.
 * Passes where either value is missing are skipped; undefined when none is left.
 */
export function medianPassRatio(
  target: readonly (number | undefined)[],
  reference: readonly (number | undefined)[],
): number | undefined {
  const ratios: number[] = []
  for (let i = 0; i < Math.min(target.length, reference.length); i++) {
    const t = target[i]
    const r = reference[i]
    if (t !== undefined && r !== undefined && r > 0) ratios.push(t / r)
  }
  return ratios.length === 0 ? undefined : median(ratios)
}

/**
 * The order targets run in, in pass `pass` (0-based): the list rotated by `pass`, so no target is
 * always first (coldest machine) or always right after the same neighbour.
 */
export function rotation<T>(items: readonly T[], pass: number): T[] {
  if (items.length === 0) return []
  const k = pass % items.length
  return [...items.slice(k), ...items.slice(0, k)]
}
