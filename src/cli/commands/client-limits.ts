/**
 * The client's limits and pace as options of every command that reads a service (docs/api.md,
 * "Client limits"): sizes in bytes (`64M`, `8MiB`, `1048576`), times in seconds (`0.5`, `30`),
 * 0 for no limit.
 */
import type { RecordsClientOptions, ResponseLimit } from '../../client/index.js'
import { UsageError } from '../args.js'

export const LIMIT_OPTIONS = {
  'max-response-bytes': { type: 'string' },
  'max-line-bytes': { type: 'string' },
  'max-download-bytes': { type: 'string' },
  timeout: { type: 'string' },
  'idle-timeout': { type: 'string' },
  'download-timeout': { type: 'string' },
  'requests-per-minute': { type: 'string' },
} as const

export type LimitValues = { [name in keyof typeof LIMIT_OPTIONS]?: string | undefined }

export const LIMITS_HELP = `  --max-response-bytes SIZE   Largest JSON answer (default 64M)
  --max-line-bytes SIZE       Longest line of the download (default 8M)
  --max-download-bytes SIZE   Largest download (default 32G)
  --timeout SECONDS           Longest a JSON answer may take, whole (default 60)
  --idle-timeout SECONDS      Longest wait for the next byte of any answer (default 30)
  --download-timeout SECONDS  Longest a download may keep us waiting for its bytes (default 3600)
  --requests-per-minute N     Pace: at most N requests a minute (default auto: 120, or the quota
                              the catalogue advertises; 0: no pacing)
                              SIZE: bytes, or with K, M, G (1024ⁿ); 0 turns a limit off`

/** Which option sets each limit, for the message of an answer past it. */
export const LIMIT_FLAGS: Partial<Record<ResponseLimit, string>> = {
  maxResponseBytes: '--max-response-bytes',
  maxLineBytes: '--max-line-bytes',
  maxDownloadBytes: '--max-download-bytes',
  timeoutMs: '--timeout',
  idleTimeoutMs: '--idle-timeout',
  downloadTimeoutMs: '--download-timeout',
}

const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }

function parseSize(flag: string, value: string): number {
  const match = /^(\d{1,15})\s*([kmg]?)(?:i?b)?$/i.exec(value.trim())
  const bytes = match === null ? NaN : Number(match[1]) * UNITS[match[2]!.toLowerCase()]!
  if (!Number.isSafeInteger(bytes))
    throw new UsageError(
      `--${flag} must be a size in bytes (such as 1048576, 512K, 64M or 2G), got "${value}"`,
    )
  return bytes
}

function parseSeconds(flag: string, value: string): number {
  const ms = /^\d{1,9}(\.\d{1,3})?$/.test(value.trim()) ? Math.round(Number(value) * 1000) : NaN
  if (!Number.isSafeInteger(ms))
    throw new UsageError(
      `--${flag} must be a number of seconds (such as 30 or 0.5; 0: no limit), got "${value}"`,
    )
  return ms
}

/** The client options the flags given set; the client's defaults stand for the others. */
export function clientLimitsFrom(values: LimitValues): RecordsClientOptions {
  const options: RecordsClientOptions = {}
  const size = (flag: keyof LimitValues) => {
    const value = values[flag]
    return value === undefined ? undefined : parseSize(flag, value)
  }
  const seconds = (flag: keyof LimitValues) => {
    const value = values[flag]
    return value === undefined ? undefined : parseSeconds(flag, value)
  }
  const set = <K extends keyof RecordsClientOptions>(key: K, value: RecordsClientOptions[K] | undefined) => {
    if (value !== undefined) options[key] = value
  }
  set('maxResponseBytes', size('max-response-bytes'))
  set('maxLineBytes', size('max-line-bytes'))
  set('maxDownloadBytes', size('max-download-bytes'))
  set('timeoutMs', seconds('timeout'))
  set('idleTimeoutMs', seconds('idle-timeout'))
  set('downloadTimeoutMs', seconds('download-timeout'))
  const pace = values['requests-per-minute']
  if (pace !== undefined) {
    if (pace !== 'auto' && !/^\d{1,7}$/.test(pace))
      throw new UsageError(
        `--requests-per-minute must be a whole number of requests (0: no pacing) or auto, got "${pace}"`,
      )
    options.requestsPerMinute = pace === 'auto' ? 'auto' : Number(pace)
  }
  return options
}
