/**
 * Work done in steps: a generator that yields between slices of a long evaluation. A caller serving
 * requests gives the event loop a turn at each yield (RecordIndex#searchInTurns), so that a search
 * of many common words does not hold the serving thread for all of it at once (issue 43, item 3);
 * a caller that wants the answer at once runs it through (`runThrough`). A generator rather than a
 * callback per slice: the evaluation keeps its locals between slices, and the code reads as one loop.
 */
export type Steps<T> = Generator<void, T, undefined>

/** The steps' result, every slice run at once. */
export function runThrough<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next()
    if (next.done === true) return next.value
  }
}

/**
 * The work of one slice, counted as it is spent: `spend` says when the slice is full (the caller
 * then yields) and starts the next. A slice ends only once its work is spent, so a search with
 * little to do is answered in one.
 */
export class SliceBudget {
  #left: number
  constructor(readonly size: number) {
    this.#left = size
  }

  /** Counts `work` units; true when the slice is full, a new one then begun. */
  spend(work: number): boolean {
    this.#left -= work
    if (this.#left > 0) return false
    this.#left = this.size
    return true
  }
}

/**
 * A slice of bit-row work (match-plan.ts, coverage-levels.ts): words of 32 documents passed, and
 * postings read, a unit each. At 1 000 000 records a unit cost 2–5 ns warm and up to 20 ns when a
 * snapshot's postings were first read, so a slice is 1–10 ms: the 8-word best match of
 * bench/request-stalls.ts then held the thread at most 23 ms a turn, against 52 ms unsliced.
 */
export const STEP_WORK = 1 << 19
