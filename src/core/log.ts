/**
 * The logging the core needs: one structured line per event, at three levels. pino's Logger
 * satisfies it; the core never imports a logging library, so tests and the stdio MCP server can
 * pass their own.
 */
export type Log = {
  info(fields: object, message: string): void
  warn(fields: object, message: string): void
  error(fields: object, message: string): void
}

/** A Log that drops everything. */
export const silentLog: Log = { info() {}, warn() {}, error() {} }

export type RepeatLimit = {
  /** Lines of one kind written per window, at most. Default 10. */
  perWindow?: number
  /** Length of the window, in ms. Default 60 000. */
  windowMs?: number
  /** Clock in ms; injectable for tests. Default Date.now. */
  now?: () => number
}

/**
 * Bounds how often one kind of line is written: client faults come at the rate clients choose, and
 * a log must not become the cheapest way to fill a disk or bury real events. Past `perWindow` lines
 * of a kind (its message) in a window, lines are counted instead, and the next line of that kind
 * after the window says how many were suppressed.
 */
export function limitRepeats(
  write: (fields: object, message: string) => void,
  limit: RepeatLimit = {},
): (fields: object, message: string) => void {
  const perWindow = limit.perWindow ?? 10
  const windowMs = limit.windowMs ?? 60_000
  const now = limit.now ?? Date.now
  const kinds = new Map<string, { start: number; written: number; suppressed: number }>()
  return (fields, message) => {
    const t = now()
    let kind = kinds.get(message)
    if (kind === undefined || t - kind.start >= windowMs) {
      const suppressed = kind?.suppressed ?? 0
      if (kinds.size >= 1_000 && kind === undefined) kinds.clear() // messages are few and fixed; never grow without bound
      kinds.set(message, (kind = { start: t, written: 0, suppressed: 0 }))
      if (suppressed > 0) fields = { ...fields, suppressedBefore: suppressed }
    }
    if (kind.written < perWindow) {
      kind.written++
      write(fields, message)
    } else kind.suppressed++
  }
}
