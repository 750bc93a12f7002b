/**
 * Ctrl-C (SIGINT) and SIGTERM alike stop a long command cleanly: its signal aborts, so what it was
 * writing (a dump's partial file, a mirror's temporary files) is removed by the code that wrote it,
 * and the command ends with 130 or 143 (128 + the signal's number), as a shell reports a process
 * stopped by that signal.
 */
const SIGNALS = { SIGINT: 'interrupted', SIGTERM: 'terminated' } as const

/** The command was stopped by a signal. */
export class InterruptedError extends Error {
  override readonly name = 'InterruptedError'
  constructor(
    readonly signalName: keyof typeof SIGNALS,
    /** What was not done, e.g. "; out.ndjson was not written". */
    consequence: string,
  ) {
    super(`interrupted (${signalName})${consequence}`)
  }
}

/** Aborts `signal` on SIGINT or SIGTERM until `dispose`; a second signal while stopping is left to Node (it ends the process). */
export function onInterrupt(consequence = ''): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController()
  const handlers = (Object.keys(SIGNALS) as (keyof typeof SIGNALS)[]).map((name) => {
    const handler = () => controller.abort(new InterruptedError(name, consequence))
    process.once(name, handler)
    return [name, handler] as const
  })
  return {
    signal: controller.signal,
    dispose: () => {
      for (const [name, handler] of handlers) process.off(name, handler)
    },
  }
}
