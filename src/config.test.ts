import { describe, expect, it } from 'vitest'
import {
  BUNDLED_RECORDS_FILE,
  loadConfig,
  loadDatabaseUrl,
  loadMcpConfig,
  parseTrustedProxies,
} from './config.js'

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    expect(loadConfig({})).toEqual({
      // This machine only, unless told otherwise: a laptop's server is not offered to its network.
      http: { port: 8080, host: '127.0.0.1', backlog: 4096, publicBaseUrl: undefined, trustProxy: undefined },
      quota: {
        perMinute: 120,
        redisUrl: undefined,
        redisKeyPrefix: 'reference-records:',
        redisTimeoutMs: 250,
        outageShare: 0.5,
      },
      records: { file: BUNDLED_RECORDS_FILE, databaseUrl: undefined },
      log: { level: 'info', hashKey: undefined },
      metrics: { allow: ['loopback', 'private'] },
      publisher: { contact: 'contact@code-et-conduite.example' },
      traces: undefined,
    })
  })
  it('reads the environment, and flags win over it', () => {
    const config = loadConfig(
      { PORT: '9000', HOST: '0.0.0.0', LOG_LEVEL: 'warn' },
      { port: '9001', 'public-base-url': 'https://records.example.org/' },
    )
    expect(config.http).toEqual({
      port: 9001,
      host: '0.0.0.0',
      backlog: 4096,
      publicBaseUrl: 'https://records.example.org',
    })
    expect(config.log.level).toBe('warn')
  })
  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '' }).http.port).toBe(8080)
  })
  it('names every bad value at once, with its flag', () => {
    expect(() =>
      loadConfig({
        PORT: 'eighty',
        LOG_LEVEL: 'loud',
        PUBLIC_BASE_URL: 'ftp://x',
        PUBLISHER_CONTACT: 'nobody',
      }),
    ).toThrow(
      [
        'config: invalid settings',
        '  PORT (--port) = "eighty": must be a whole number from 0 to 65535',
        '  PUBLIC_BASE_URL (--public-base-url) = "ftp://x": must be an absolute http(s) URL such as https://records.example.org',
        '  LOG_LEVEL (--log-level) = "loud": must be one of fatal, error, warn, info, debug, trace, silent',
        '  PUBLISHER_CONTACT (--publisher-contact) = "nobody": must be an e-mail address',
      ].join('\n'),
    )
  })
  it.each([['70000'], ['-1'], ['8080.5'], [' 80']])('refuses PORT=%s', (port) => {
    expect(() => loadConfig({ PORT: port })).toThrow(/PORT \(--port\)/)
  })
  it('reads the quota settings', () => {
    const config = loadConfig({
      RATE_LIMIT_PER_MINUTE: '0',
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
      REDIS_URL: 'redis://cache:6379/2',
    })
    expect(config.quota).toMatchObject({ perMinute: 0, redisUrl: 'redis://cache:6379/2' })
    expect(config.http.trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1'])
  })
  it.each([
    ['0.25', 0.25],
    ['.5', 0.5],
    ['1', 1],
    ['1/3', 1 / 3],
  ])('reads REDIS_OUTAGE_SHARE=%s', (value, share) => {
    expect(loadConfig({ REDIS_OUTAGE_SHARE: value }).quota.outageShare).toBe(share)
  })
  it.each([
    ['TRUST_PROXY', '2', /TRUST_PROXY \(--trust-proxy\) = "2": "2" is not an IP address or CIDR range/],
    [
      'METRICS_ALLOW',
      'loopback,intranet',
      /METRICS_ALLOW \(--metrics-allow\) = "loopback,intranet": "intranet" is not an IP address or CIDR range; give loopback, private, \*, addresses or CIDR ranges/,
    ],
    ['METRICS_ALLOW', ' , ', /METRICS_ALLOW .*no client is named/],
    [
      'REDIS_URL',
      'http://cache',
      /REDIS_URL \(--redis-url\) = "http:\/\/cache": must be a redis:\/\/ or rediss:\/\/ URL/,
    ],
    ['REDIS_TIMEOUT_MS', '0', /REDIS_TIMEOUT_MS .*from 1 to 10000/],
    ['REDIS_TIMEOUT_MS', '10001', /REDIS_TIMEOUT_MS .*from 1 to 10000/],
    ['REDIS_OUTAGE_SHARE', '0', /REDIS_OUTAGE_SHARE .*more than 0 and at most 1/],
    ['REDIS_OUTAGE_SHARE', '1.5', /REDIS_OUTAGE_SHARE .*more than 0 and at most 1/],
    ['REDIS_OUTAGE_SHARE', 'half', /REDIS_OUTAGE_SHARE .*fraction such as 0.5 or 1\/3/],
    ['REDIS_OUTAGE_SHARE', '1/0', /REDIS_OUTAGE_SHARE .*fraction such as 0.5 or 1\/3/],
    ['RATE_LIMIT_PER_MINUTE', '-5', /RATE_LIMIT_PER_MINUTE .*must be a whole number/],
    // A whole number, but past the bound: the message says the bound, not "a whole number" alone.
    [
      'RATE_LIMIT_PER_MINUTE',
      '1000000000',
      /RATE_LIMIT_PER_MINUTE .*must be a whole number from 0 to 9999999/,
    ],
    ['RATE_LIMIT_PER_MINUTE', '2.5', /RATE_LIMIT_PER_MINUTE .*from 0 to 9999999 \(0 disables the quota\)/],
  ])('refuses %s=%s, naming it', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message)
  })
  it('reads who may read /metrics', () => {
    expect(loadConfig({ METRICS_ALLOW: 'loopback, 198.51.100.7,2001:db8::/32' }).metrics.allow).toEqual([
      'loopback',
      '198.51.100.7',
      '2001:db8::/32',
    ])
    expect(loadConfig({}, { 'metrics-allow': '*' }).metrics.allow).toEqual(['*'])
  })
  it('reads the hosts the DNS-rebinding guard also accepts', () => {
    expect(loadConfig({}).allowedHosts).toBeUndefined()
    expect(loadConfig({ ALLOWED_HOSTS: 'records.internal, 192.0.2.10,[2001:db8::1]' }).allowedHosts).toEqual([
      'records.internal',
      '192.0.2.10',
      '[2001:db8::1]',
    ])
    expect(loadConfig({}, { 'allowed-hosts': '*' }).allowedHosts).toEqual(['*'])
  })
  it.each(['localhost:8080', 'https://records.example.org', 'a b', 'records.example.org/x', ' , '])(
    'refuses ALLOWED_HOSTS=%j, naming the entry and what to give',
    (value) => {
      expect(() => loadConfig({ ALLOWED_HOSTS: value })).toThrow(
        /ALLOWED_HOSTS \(--allowed-hosts\) = .*(is not a host name|no host is named); give host names or IP addresses without scheme or port/,
      )
    },
  )
  it('refuses a public base URL with a query', () => {
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'https://x.example/?a=1' })).toThrow(
      /must not contain a query or a fragment/,
    )
  })
})

describe('traces (OpenTelemetry)', () => {
  const sampler = { name: 'parentbased_always_on', ratio: 1 }
  it("sends to the base endpoint's /v1/traces, or to the traces endpoint as given", () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).traces).toEqual({
      url: 'http://collector:4318/v1/traces',
      serviceName: 'reference-records',
      sampler,
    })
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/ingest',
        OTEL_SERVICE_NAME: 'records-eu',
      }).traces,
    ).toEqual({ url: 'https://traces.example/ingest', serviceName: 'records-eu', sampler })
    // A name or a sampler alone traces nothing.
    expect(
      loadConfig({ OTEL_SERVICE_NAME: 'records-eu', OTEL_TRACES_SAMPLER: 'always_on' }).traces,
    ).toBeUndefined()
  })
  it('takes the standard sampler names and a ratio', () => {
    const config = loadConfig(
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' },
      { 'otel-traces-sampler': 'parentbased_traceidratio', 'otel-traces-sampler-arg': '0.25' },
    )
    expect(config.traces?.sampler).toEqual({ name: 'parentbased_traceidratio', ratio: 0.25 })
  })
  it('refuses an endpoint that is not an http(s) URL, an unknown sampler and a ratio above 1', () => {
    expect(() =>
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
        OTEL_TRACES_SAMPLER: 'sometimes',
        OTEL_TRACES_SAMPLER_ARG: '1.5',
      }),
    ).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT[^\n]*http\(s\) URL[\s\S]*OTEL_TRACES_SAMPLER [^\n]*one of[\s\S]*OTEL_TRACES_SAMPLER_ARG[^\n]*ratio/,
    )
  })
})

describe('parseTrustedProxies', () => {
  it('accepts addresses and CIDR ranges', () => {
    expect(parseTrustedProxies('10.0.0.0/8, 127.0.0.1,::1, fd00::/8')).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
    ])
  })
  it.each(['2', 'loopback', '10.0.0.0/33', '10.0.0.300'])('refuses %s, naming it', (value) => {
    expect(() => parseTrustedProxies(value)).toThrow(`"${value}" is not an IP address or CIDR range`)
  })
})

describe('DATABASE_URL', () => {
  const url = 'postgres://replica@db.internal:5432/records'
  it('makes PostgreSQL the source of records, from the environment or the flag', () => {
    expect(loadConfig({ DATABASE_URL: url }).records.databaseUrl).toBe(url)
    expect(
      loadConfig({}, { 'database-url': 'postgresql:///records?host=/run/postgresql' }).records.databaseUrl,
    ).toBe('postgresql:///records?host=/run/postgresql')
  })
  it('refuses another scheme without echoing a password, and a file given as well', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://admin:s3cret@db/records' })).toThrow(
      'config: invalid settings\n  DATABASE_URL (--database-url) = "mysql://admin:***@db/records": must be a postgres:// or postgresql:// URL',
    )
    expect(() => loadConfig({ DATABASE_URL: url, RECORDS_FILE: 'records.json' })).toThrow(
      'RECORDS_FILE (--records-file) and DATABASE_URL (--database-url): give one source of records, not both',
    )
  })
  it('is required by the publishing commands', () => {
    expect(loadDatabaseUrl({}, url)).toBe(url)
    expect(loadDatabaseUrl({ DATABASE_URL: url })).toBe(url)
    expect(() => loadDatabaseUrl({})).toThrow('config: no database: set DATABASE_URL or give --database-url')
  })
  it('serves MCP from PostgreSQL, one source at a time', () => {
    expect(loadMcpConfig({ DATABASE_URL: url })).toEqual({ source: 'postgres', databaseUrl: url })
    expect(loadMcpConfig({ DATABASE_URL: url }, { 'records-file': 'x.json' })).toEqual({
      source: 'file',
      file: 'x.json',
    })
    expect(() => loadMcpConfig({}, { 'database-url': url, 'base-url': 'https://x.example/api/v1' })).toThrow(
      'give one of --records-file, --base-url or --database-url, not several',
    )
  })
})

describe('one rule for empty values, in serve and mcp alike', () => {
  const blank = 'RECORDS_FILE (--records-file) = "   ": must not be empty'
  it('reads an empty RECORDS_FILE, or --records-file, as unset: the bundled records', () => {
    expect(loadConfig({ RECORDS_FILE: '' }).records.file).toBe(BUNDLED_RECORDS_FILE)
    expect(loadMcpConfig({ RECORDS_FILE: '' })).toEqual({ source: 'file', file: BUNDLED_RECORDS_FILE })
    expect(loadConfig({}, { 'records-file': '' }).records.file).toBe(BUNDLED_RECORDS_FILE)
    expect(loadMcpConfig({}, { 'records-file': '' })).toEqual({ source: 'file', file: BUNDLED_RECORDS_FILE })
  })
  it('refuses a RECORDS_FILE of blanks, from the environment or the flag, instead of serving another file', () => {
    expect(() => loadConfig({ RECORDS_FILE: '   ' })).toThrow(blank)
    expect(() => loadMcpConfig({ RECORDS_FILE: '   ' })).toThrow(blank)
    expect(() => loadConfig({}, { 'records-file': '   ' })).toThrow(blank)
    expect(() => loadMcpConfig({}, { 'records-file': '   ' })).toThrow(blank)
  })
  it('trims the file name the same way', () => {
    expect(loadConfig({ RECORDS_FILE: ' records.json ' }).records.file).toBe('records.json')
    expect(loadMcpConfig({ RECORDS_FILE: ' records.json ' })).toEqual({
      source: 'file',
      file: 'records.json',
    })
  })
  it('reads an empty REFERENCE_RECORDS_URL as unset, and refuses one of blanks', () => {
    expect(loadMcpConfig({ REFERENCE_RECORDS_URL: '' })).toEqual({
      source: 'file',
      file: BUNDLED_RECORDS_FILE,
    })
    expect(loadMcpConfig({ REFERENCE_RECORDS_URL: '', RECORDS_FILE: 'x.json' })).toEqual({
      source: 'file',
      file: 'x.json',
    })
    expect(loadMcpConfig({}, { 'base-url': '' })).toEqual({ source: 'file', file: BUNDLED_RECORDS_FILE })
    expect(() => loadMcpConfig({ REFERENCE_RECORDS_URL: '  ' })).toThrow(
      'config: invalid settings\n  REFERENCE_RECORDS_URL (--base-url) = "  ": must be an absolute http(s) URL such as https://records.example.org/api/v1',
    )
  })
})
