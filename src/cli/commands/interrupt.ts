/**
 * Ctrl-C (SIGINT) and SIGTERM alike stop a long command cleanly: its signal aborts, so what it was
 * writing (a dump's partial file, a mirror's temporary files) is removed by the code that wrote it,
 * and the command ends as any failure does (exit 1, one message).
 */
const SIGNALS = ['SIGINT', 'SIGTERM'] as const

/** The command was stopped by a signal. */
class InterruptedError extends Error {
  override readonly name = 'InterruptedError'
  constructor(
    readonly signalName: (typeof SIGNALS)[number],
    /** What was not done, e.g. "; out.ndjson was not written". */
    consequence: string,
  ) {
    // Ctrl-C says what it always said; SIGTERM names itself, since no one at a keyboard sent it.
    super(`${signalName === 'SIGINT' ? 'interrupted' : 'stopped by SIGTERM'}${consequence}`)
  }
}

/** Aborts `signal` on SIGINT or SIGTERM until `dispose`; a second signal while stopping is left to Node (it ends the process). */
export function onInterrupt(consequence = ''): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController()
  const handlers = SIGNALS.map((name) => {
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
