/** The service's one logger: JSON lines (pino), shared by the adapters and the core's events. */
import { pino, type Logger } from 'pino'

export function createLogger(level: string): Logger {
  return pino({ level })
}
