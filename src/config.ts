/**
 * Settings, read once from the environment and the `serve` command's flags (flags win), validated
 * as a whole so that a bad start names every bad value at once. The only reader of process.env.
 */
import { fileURLToPath } from 'node:url'
import { z } from 'zod'

/** The bundled sample records, used when RECORDS_FILE is not set. */
export const BUNDLED_RECORDS_FILE = fileURLToPath(new URL('../data/records.json', import.meta.url))

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

const port = z
  .string()
  .regex(/^\d{1,5}$/, 'must be a whole number from 0 to 65535')
  .transform(Number)
  .refine((n) => n <= 65535, 'must be a whole number from 0 to 65535')

const baseUrl = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL such as https://records.example.org' })
  .refine((u) => !/[?#]/.test(u), 'must not contain a query or a fragment')
  .transform((u) => u.replace(/\/+$/, ''))

/** Every setting, with its default. Keys are the environment variable names. */
export const SettingsSchema = z.object({
  PORT: port.default(8080).describe('TCP port of the HTTP server. Default 8080.'),
  HOST: z.string().trim().min(1, 'must not be empty').default('0.0.0.0').describe('Address to listen on. Default 0.0.0.0 (every IPv4 interface); use :: for IPv6 too.'),
  RECORDS_FILE: z.string().trim().min(1, 'must not be empty').default(BUNDLED_RECORDS_FILE).describe('Records file (JSON array, NDJSON, or {"records": [...]}). Default: the bundled sample.'),
  PUBLIC_BASE_URL: baseUrl.optional().describe('Public origin (and path prefix) of the service, for absolute links; links are root-relative otherwise.'),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info').describe('pino log level. Default info.'),
  LOG_HASH_KEY: z.string().min(16, 'must be at least 16 characters').optional().describe('Key of the hash that replaces client addresses in logs. Default: random at each start, so a client can be followed within one process; set it (same value on every replica) to follow one across replicas and restarts.'),
  PUBLISHER_CONTACT: z.email({ error: 'must be an e-mail address' }).default('contact@code-et-conduite.example').describe("Address published in the catalogue's reuse conditions, for permission requests. Default: the sample publisher's."),
})
export type Settings = z.infer<typeof SettingsSchema>
export const SETTING_NAMES = Object.keys(SettingsSchema.shape) as (keyof Settings)[]

/** `--records-file` ⇄ `RECORDS_FILE`. */
export const flagName = (setting: string): string => setting.toLowerCase().replaceAll('_', '-')

/** Reads the settings; CLI flags (same names, kebab-case) win over the environment. Throws listing every bad key. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: Record<string, string | undefined> = {}) {
  const raw: Record<string, string | undefined> = {}
  for (const name of SETTING_NAMES) {
    const value = flags[flagName(name)] ?? env[name]
    // An empty variable (`PORT=`) means "not set", as in most twelve-factor tools.
    if (value !== undefined && value !== '') raw[name] = value
  }
  const result = SettingsSchema.safeParse(raw)
  if (!result.success) {
    const lines = result.error.issues.map((i) => {
      const key = String(i.path[0])
      return `  ${key} (--${flagName(key)}) = ${JSON.stringify(raw[key])}: ${i.message}`
    })
    throw new Error(`config: invalid settings\n${lines.join('\n')}`)
  }
  const s = result.data
  return Object.freeze({
    http: { port: s.PORT, host: s.HOST, publicBaseUrl: s.PUBLIC_BASE_URL },
    records: { file: s.RECORDS_FILE },
    log: { level: s.LOG_LEVEL, hashKey: s.LOG_HASH_KEY },
    publisher: { contact: s.PUBLISHER_CONTACT },
  })
}
export type Config = ReturnType<typeof loadConfig>
