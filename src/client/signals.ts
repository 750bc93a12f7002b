/** Combining the client's and a call's abort signals, also where `AbortSignal.any` is missing (Safari < 17.4). */

/** A signal that aborts when either does, with that one's reason; undefined when neither is given. */
export function combineSignals(
  a: AbortSignal | undefined,
  b: AbortSignal | undefined,
): AbortSignal | undefined {
  if (a === undefined || b === undefined) return a ?? b
  const any = (AbortSignal as { any?: (signals: AbortSignal[]) => AbortSignal }).any
  if (typeof any === 'function') return any.call(AbortSignal, [a, b])
  const controller = new AbortController()
  for (const signal of [a, b]) {
    if (signal.aborted) {
      controller.abort(signal.reason)
      break
    }
    signal.addEventListener('abort', () => controller.abort(signal.reason), {
      once: true,
      signal: controller.signal,
    })
  }
  return controller.signal
}
