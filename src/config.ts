/**
 * Settings, read once from the environment and the `serve` command's flags (flags win), validated
 * as a whole so that a bad start names every bad value at once. The only reader of process.env.
 */
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { parseTrustedProxies } from './ratelimit/client-key.js'

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
  RATE_LIMIT_PER_MINUTE: z
    .string()
    .regex(/^\d{1,7}$/, 'must be a whole number (0 disables the quota)')
    .transform(Number)
    .default(120)
    .describe('Requests per rolling minute per client, shared by the API and MCP. Default 120; 0 disables the quota (benchmarks only).'),
  TRUST_PROXY: z
    .string()
    .transform((value, ctx) => {
      try {
        return parseTrustedProxies(value)
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `${(err as Error).message}; give addresses or CIDR ranges, comma-separated` })
        return z.NEVER
      }
    })
    .optional()
    .describe('Proxies whose X-Forwarded-For is believed: comma-separated addresses or CIDR ranges (e.g. 10.0.0.0/8). Default: none, the socket address is the client.'),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' })
    .optional()
    .describe('Redis shared by every replica for the quota. Default: none, each process counts in memory.'),
  REDIS_KEY_PREFIX: z.string().min(1).default('reference-records:').describe('Prefix of every Redis key. Default reference-records:.'),
  REDIS_TIMEOUT_MS: z
    .string()
    .regex(/^\d{1,4}$/, 'must be a whole number of milliseconds')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 1000, 'must be from 1 to 1000')
    .default(25)
    .describe('How long a quota check may wait for Redis before this process counts in memory instead. Default 25.'),
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
    http: { port: s.PORT, host: s.HOST, publicBaseUrl: s.PUBLIC_BASE_URL, trustProxy: s.TRUST_PROXY },
    quota: { perMinute: s.RATE_LIMIT_PER_MINUTE, redisUrl: s.REDIS_URL, redisKeyPrefix: s.REDIS_KEY_PREFIX, redisTimeoutMs: s.REDIS_TIMEOUT_MS },
    records: { file: s.RECORDS_FILE },
    log: { level: s.LOG_LEVEL, hashKey: s.LOG_HASH_KEY },
    publisher: { contact: s.PUBLISHER_CONTACT },
  })
}
export type Config = ReturnType<typeof loadConfig>
