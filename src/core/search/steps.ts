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
