/**
 * Settings, read once from the environment and the commands' flags (flags win), validated as a
 * whole so that a bad start names every bad value at once. The only reader of process.env (a lint
 * rule holds every other module to it): commands get their settings from here, with one rule for
 * empty values.
 */
import { fileURLToPath } from 'node:url'
import ipaddr from 'ipaddr.js'
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

const databaseUrl = z.url({
  protocol: /^postgres(ql)?$/,
  error: 'must be a postgres:// or postgresql:// URL',
})

/** OpenTelemetry's standard sampler names (OTEL_TRACES_SAMPLER), those a trace-only service can use. */
const TRACE_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const

const otlpEndpoint = z.url({
  protocol: /^https?$/,
  error: 'must be an absolute http(s) URL such as http://collector:4318',
})

/** Every setting, with its default. Keys are the environment variable names. */
export const SettingsSchema = z.object({
  PORT: port.default(8080).describe('TCP port of the HTTP server. Default 8080.'),
  HOST: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .default('127.0.0.1')
    .describe(
      'Address to listen on. Default 127.0.0.1 (this machine only); 0.0.0.0 for every IPv4 interface (containers, servers), :: for IPv6 too.',
    ),
  LISTEN_BACKLOG: z
    .string()
    .regex(/^\d{1,6}$/, 'must be a whole number of connections')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 65_535, 'must be from 1 to 65535')
    .default(4_096)
    .describe(
      'Connections the kernel may queue before the server accepts them (listen backlog). Default 4096; Linux caps it at net.core.somaxconn.',
    ),
  RECORDS_FILE: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .default(BUNDLED_RECORDS_FILE)
    .describe('Records file (JSON array, NDJSON, or {"records": [...]}). Default: the bundled sample.'),
  DATABASE_URL: databaseUrl
    .optional()
    .describe(
      'PostgreSQL database holding the published snapshots: records are read from it (and followed) instead of RECORDS_FILE. Default: none.',
    ),
  PUBLIC_BASE_URL: baseUrl
    .optional()
    .describe(
      'Public origin (and path prefix) of the service, for absolute links; links are root-relative otherwise.',
    ),
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` })
    .default('info')
    .describe('pino log level. Default info.'),
  LOG_HASH_KEY: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe(
      'Key of the hash that replaces client addresses in logs. Default: random at each start, so a client can be followed within one process; set it (same value on every replica) to follow one across replicas and restarts.',
    ),
  RATE_LIMIT_PER_MINUTE: z
    .string()
    .regex(/^\d{1,7}$/, 'must be a whole number from 0 to 9999999 (0 disables the quota)')
    .transform(Number)
    .default(120)
    .describe(
      'Requests per rolling minute per client, shared by the API and MCP. Default 120; 0 disables the quota (benchmarks only).',
    ),
  TRUST_PROXY: z
    .string()
    .transform((value, ctx) => {
      try {
        return parseTrustedProxies(value)
      } catch (err) {
        ctx.addIssue({
          code: 'custom',
          message: `${(err as Error).message}; give addresses or CIDR ranges, comma-separated`,
        })
        return z.NEVER
      }
    })
    .optional()
    .describe(
      'Proxies whose X-Forwarded-For is believed: comma-separated addresses or CIDR ranges (e.g. 10.0.0.0/8). Default: none, the socket address is the client.',
    ),
  METRICS_ALLOW: z
    .string()
    .transform((value, ctx) => {
      try {
        return parseAllowedClients(value)
      } catch (err) {
        ctx.addIssue({
          code: 'custom',
          message: `${(err as Error).message}; give loopback, private, *, addresses or CIDR ranges, comma-separated`,
        })
        return z.NEVER
      }
    })
    .default(['loopback', 'private'])
    .describe(
      'Clients that may read GET /metrics: comma-separated addresses, CIDR ranges, loopback, private (RFC 1918, IPv6 unique-local and link-local) or * for everyone. Others get 404. Default loopback,private.',
    ),
  ALLOWED_HOSTS: z
    .string()
    .transform((value, ctx) => {
      try {
        return parseAllowedHosts(value)
      } catch (err) {
        ctx.addIssue({
          code: 'custom',
          message: `${(err as Error).message}; give host names or IP addresses without scheme or port (records.example.org, 192.0.2.10, [2001:db8::1]), comma-separated, or * to accept any`,
        })
        return z.NEVER
      }
    })
    .optional()
    .describe(
      'Host names a service listening on a loopback address also answers for, besides localhost, 127.0.0.1, [::1] and the host of PUBLIC_BASE_URL: comma-separated, or * for any (the guard against DNS rebinding is then off). Others get 403. Unused when HOST is not a loopback address. Default: none.',
    ),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' })
    .optional()
    .describe('Redis shared by every replica for the quota. Default: none, each process counts in memory.'),
  REDIS_KEY_PREFIX: z
    .string()
    .min(1)
    .default('reference-records:')
    .describe('Prefix of every Redis key. Default reference-records:.'),
  REDIS_TIMEOUT_MS: z
    .string()
    .regex(/^\d{1,5}$/, 'must be a whole number of milliseconds from 1 to 10000')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 10_000, 'must be a whole number of milliseconds from 1 to 10000')
    .default(250)
    .describe(
      'How long a call to Redis may go unanswered, counted only while this process is free to read the answer (a busy event loop does not count), before it is a failure; 3 failures in a row declare Redis unavailable. Default 250.',
    ),
  REDIS_OUTAGE_SHARE: z
    .string()
    .regex(/^(\d{1,3}(\.\d{1,6})?|\.\d{1,6}|1\/[1-9]\d{0,2})$/, 'must be a fraction such as 0.5 or 1/3')
    .transform((v) => (v.startsWith('1/') ? 1 / Number(v.slice(2)) : Number(v)))
    .refine((n) => n > 0 && n <= 1, 'must be more than 0 and at most 1')
    .default(0.5)
    .describe(
      'Share of RATE_LIMIT_PER_MINUTE each replica admits per client while Redis is unavailable: 1/N for N replicas. Default 0.5 (two replicas).',
    ),
  OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint
    .optional()
    .describe(
      'Base URL of an OTLP/HTTP collector: traces are sent to its /v1/traces. Default: none, no traces (the tracing modules are not even loaded).',
    ),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: otlpEndpoint
    .optional()
    .describe(
      'Full URL traces are sent to (OTLP/HTTP, JSON), used as given; wins over OTEL_EXPORTER_OTLP_ENDPOINT. Default: none.',
    ),
  OTEL_TRACES_SAMPLER: z
    .enum(TRACE_SAMPLERS, { error: `must be one of ${TRACE_SAMPLERS.join(', ')}` })
    .default('parentbased_always_on')
    .describe(
      "Which requests are traced (OpenTelemetry's sampler names): the parentbased_ ones follow the caller's decision when its traceparent carries one. Default parentbased_always_on.",
    ),
  OTEL_TRACES_SAMPLER_ARG: z
    .string()
    .regex(/^(0(\.\d{1,6})?|1(\.0{1,6})?|\.\d{1,6})$/, 'must be a ratio from 0 to 1, such as 0.1')
    .transform(Number)
    .default(1)
    .describe('Share of traces kept by the traceidratio samplers, from 0 to 1. Default 1.'),
  OTEL_SERVICE_NAME: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .default('reference-records')
    .describe('service.name of the traces. Default reference-records.'),
  PUBLISHER_CONTACT: z
    .email({ error: 'must be an e-mail address' })
    .default('contact@code-et-conduite.example')
    .describe(
      "Address published in the catalogue's reuse conditions, for permission requests. Default: the sample publisher's.",
    ),
})
export type Settings = z.infer<typeof SettingsSchema>
export const SETTING_NAMES = Object.keys(SettingsSchema.shape) as (keyof Settings)[]

/** The process's environment: the one place it is read. */
export const processEnv = (): NodeJS.ProcessEnv => process.env

/** Parses TRUST_PROXY: comma-separated addresses or CIDR ranges. Throws naming the bad entry. */
export function parseTrustedProxies(value: string): string[] {
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')
  for (const entry of entries) {
    const valid = entry.includes('/') ? isCidr(entry) : isAddress(entry)
    if (!valid) throw new Error(`"${entry}" is not an IP address or CIDR range`)
  }
  return entries
}

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i

/** Parses ALLOWED_HOSTS: host names, IP addresses (IPv6 in brackets or not) or `*`. Throws naming the bad entry. */
function parseAllowedHosts(value: string): string[] {
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')
  if (entries.length === 0) throw new Error('no host is named')
  for (const entry of entries) {
    const bare = entry.replace(/^\[(.*)\]$/, '$1')
    if (entry !== '*' && !HOST_NAME.test(entry) && !ipaddr.IPv6.isValid(bare))
      throw new Error(`"${entry}" is not a host name`)
  }
  return entries
}

/** Parses METRICS_ALLOW: the keywords loopback, private and *, or addresses and CIDR ranges. Throws naming the bad entry. */
function parseAllowedClients(value: string): string[] {
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')
  if (entries.length === 0) throw new Error('no client is named')
  const ranges = entries.filter((e) => e !== 'loopback' && e !== 'private' && e !== '*')
  parseTrustedProxies(ranges.join(','))
  return entries
}

// ipaddr.isValid also takes legacy IPv4 forms ("2" is 0.0.0.2): a typo must not silently trust an address.
const isAddress = (s: string) => ipaddr.IPv4.isValidFourPartDecimal(s) || ipaddr.IPv6.isValid(s)

function isCidr(entry: string): boolean {
  try {
    ipaddr.parseCIDR(entry)
    return isAddress(entry.slice(0, entry.lastIndexOf('/')))
  } catch {
    return false
  }
}

/** `--records-file` ⇄ `RECORDS_FILE`. */
export const flagName = (setting: string): string => setting.toLowerCase().replaceAll('_', '-')

/**
 * The one rule for a setting's value: a flag wins over the environment, and an empty value
 * (`PORT=`, `--port ''`) means "not set", as in most twelve-factor tools.
 */
function settingValue(
  env: NodeJS.ProcessEnv,
  flags: Record<string, string | undefined>,
  name: string,
): string | undefined {
  const flag = flags[flagName(name)]
  if (flag !== undefined && flag !== '') return flag
  const fromEnv = env[name]
  return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv
}

/** One line of a refused start: the setting, its flag, the value given and what is wrong with it. */
function issueLine(key: string, value: string | undefined, message: string): string {
  // Connection URLs may carry a password: never echo it.
  const shown = key === 'DATABASE_URL' || key === 'REDIS_URL' ? redactUrl(value ?? '') : JSON.stringify(value)
  return `  ${key} (--${flagName(key)}) = ${shown}: ${message}`
}

/** One setting's value checked by the rule `serve` applies to it (SettingsSchema); throws as loadConfig does. */
function checkedSetting<K extends keyof Settings>(key: K, value: string): Settings[K] {
  const checked = SettingsSchema.shape[key].safeParse(value)
  if (!checked.success)
    throw new Error(`config: invalid settings\n${issueLine(key, value, checked.error.issues[0]!.message)}`)
  return checked.data as Settings[K]
}

/** Reads the settings; CLI flags (same names, kebab-case) win over the environment. Throws listing every bad key. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  flags: Record<string, string | undefined> = {},
) {
  const raw: Record<string, string | undefined> = {}
  for (const name of SETTING_NAMES) {
    const value = settingValue(env, flags, name)
    if (value !== undefined) raw[name] = value
  }
  const result = SettingsSchema.safeParse(raw)
  if (!result.success) {
    const lines = result.error.issues.map((i) =>
      issueLine(String(i.path[0]), raw[String(i.path[0])], i.message),
    )
    throw new Error(`config: invalid settings\n${lines.join('\n')}`)
  }
  if (raw.RECORDS_FILE !== undefined && raw.DATABASE_URL !== undefined) {
    throw new Error(
      'config: invalid settings\n  RECORDS_FILE (--records-file) and DATABASE_URL (--database-url): give one source of records, not both',
    )
  }
  const s = result.data
  return Object.freeze({
    http: {
      port: s.PORT,
      host: s.HOST,
      backlog: s.LISTEN_BACKLOG,
      publicBaseUrl: s.PUBLIC_BASE_URL,
      trustProxy: s.TRUST_PROXY,
    },
    /** Host names answered for besides the loopback ones, when listening on a loopback address (the DNS-rebinding guard). */
    allowedHosts: s.ALLOWED_HOSTS,
    quota: {
      perMinute: s.RATE_LIMIT_PER_MINUTE,
      redisUrl: s.REDIS_URL,
      redisKeyPrefix: s.REDIS_KEY_PREFIX,
      redisTimeoutMs: s.REDIS_TIMEOUT_MS,
      outageShare: s.REDIS_OUTAGE_SHARE,
    },
    records: { file: s.RECORDS_FILE, databaseUrl: s.DATABASE_URL },
    log: { level: s.LOG_LEVEL, hashKey: s.LOG_HASH_KEY },
    metrics: { allow: s.METRICS_ALLOW },
    publisher: { contact: s.PUBLISHER_CONTACT },
    /** OpenTelemetry traces: undefined unless an OTLP endpoint is set. */
    traces: tracesConfig(s),
  })
}
export type Config = ReturnType<typeof loadConfig>

/**
 * Where traces go, by the OpenTelemetry rule for OTLP/HTTP: the signal's own endpoint as given, or
 * the base endpoint with `v1/traces` appended to its path.
 */
function tracesConfig(s: Settings) {
  const base = s.OTEL_EXPORTER_OTLP_ENDPOINT
  const url =
    s.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (base === undefined ? undefined : `${base.replace(/\/+$/, '')}/v1/traces`)
  if (url === undefined) return undefined
  return {
    url,
    serviceName: s.OTEL_SERVICE_NAME,
    sampler: { name: s.OTEL_TRACES_SAMPLER, ratio: s.OTEL_TRACES_SAMPLER_ARG },
  }
}

/** Environment variable naming the API root read by the client commands and `mcp --base-url`. */
export const BASE_URL_SETTING = 'REFERENCE_RECORDS_URL'

/**
 * Where the `mcp` command reads records: a records file in this process, PostgreSQL's published
 * snapshots, or a running service's API root. Same rules as `serve` (flags win, empty means unset);
 * at most one of the three flags; a bad value throws naming it.
 */
export function loadMcpConfig(
  env: NodeJS.ProcessEnv = process.env,
  flags: { 'records-file'?: string; 'base-url'?: string; 'database-url'?: string } = {},
) {
  const given = (name: keyof typeof flags) => (flags[name] === '' ? undefined : flags[name])
  const fileFlag = given('records-file')
  const urlFlag = given('base-url')
  const databaseFlag = given('database-url')
  if ([fileFlag, urlFlag, databaseFlag].filter((f) => f !== undefined).length > 1) {
    throw new Error('config: give one of --records-file, --base-url or --database-url, not several')
  }
  // An explicit flag wins over whatever the environment names; from the environment, a remote API first.
  const fromEnv = fileFlag === undefined && urlFlag === undefined && databaseFlag === undefined
  const baseUrl = urlFlag ?? (fromEnv ? settingValue(env, {}, BASE_URL_SETTING) : undefined)
  if (baseUrl !== undefined) {
    const checked = baseUrlSchema.safeParse(baseUrl)
    if (!checked.success)
      throw new Error(
        `config: invalid settings\n  ${BASE_URL_SETTING} (--base-url) = ${JSON.stringify(baseUrl)}: ${checked.error.issues[0]!.message}`,
      )
    return Object.freeze({ source: 'remote' as const, baseUrl: checked.data })
  }
  if (databaseFlag !== undefined || (fromEnv && settingValue(env, {}, 'DATABASE_URL') !== undefined)) {
    if (fromEnv && settingValue(env, {}, 'RECORDS_FILE') !== undefined) {
      throw new Error(
        'config: invalid settings\n  RECORDS_FILE and DATABASE_URL: give one source of records, not both',
      )
    }
    return Object.freeze({ source: 'postgres' as const, databaseUrl: loadDatabaseUrl(env, databaseFlag) })
  }
  // The rule of `serve`: empty means unset (the bundled records), blanks are refused, the value is trimmed.
  const file = fileFlag ?? settingValue(env, {}, 'RECORDS_FILE')
  return Object.freeze({
    source: 'file' as const,
    file: file === undefined ? BUNDLED_RECORDS_FILE : checkedSetting('RECORDS_FILE', file),
  })
}

/**
 * The database of the publishing commands (`publish`, `snapshots`, `rollback`, `db migrate`) and of
 * `mcp --database-url`: the flag, else DATABASE_URL, validated like the `serve` setting. Throws
 * when neither is given or the value is not a PostgreSQL URL.
 */
export function loadDatabaseUrl(env: NodeJS.ProcessEnv = process.env, flag?: string): string {
  const value = settingValue(env, { 'database-url': flag }, 'DATABASE_URL')
  if (value === undefined)
    throw new Error(
      'config: no database: set DATABASE_URL or give --database-url (e.g. postgres://user@db.example:5432/records)',
    )
  const checked = SettingsSchema.shape.DATABASE_URL.safeParse(value)
  if (!checked.success)
    throw new Error(
      `config: invalid settings\n  DATABASE_URL (--database-url) = ${redactUrl(value)}: ${checked.error.issues[0]!.message}`,
    )
  return checked.data!
}

/** A URL as it may be printed (quoted): its password replaced, so errors and logs never show a credential. */
function redactUrl(value: string): string {
  return JSON.stringify(value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, '$1***@'))
}

export type McpConfig = ReturnType<typeof loadMcpConfig>

const baseUrlSchema = z.url({
  protocol: /^https?$/,
  error: 'must be an absolute http(s) URL such as https://records.example.org/api/v1',
})

/** The API root the client commands read: --base-url, else REFERENCE_RECORDS_URL, else undefined (the client's default). */
export function clientBaseUrl(
  env: NodeJS.ProcessEnv,
  flag: string | undefined,
): { value: string; from: string } | undefined {
  if (flag !== undefined && flag !== '') return { value: flag, from: '--base-url' }
  const fromEnv = settingValue(env, {}, BASE_URL_SETTING)
  return fromEnv === undefined ? undefined : { value: fromEnv, from: BASE_URL_SETTING }
}
