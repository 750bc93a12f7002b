/**
 * The image recipe (Dockerfile) and the deployment (compose.yaml), read as text: base images cannot be
 * pulled on the build machines, so neither is built here. Checked against what the service reads
 * (src/config.ts's settings, the configuration table of the docs, the files the package ships) and
 * against the topology of docs/operations.md: nginx in front of two replicas, Redis, PostgreSQL and a
 * job that publishes the bundled records. The health check script itself runs against a real service
 * in test/e2e/healthcheck.test.ts; the native deployment test (test/e2e/deployment.test.ts) runs the
 * same nginx configuration in front of two replicas.
 */
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { SettingsSchema, loadConfig } from '../../src/config.js'
import { envPairs, instructionOptions, parseDockerfile, type Instruction } from '../support/dockerfile.js'
import { documentedNginxBlock } from '../support/nginx.js'

const root = new URL('../../', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, root), 'utf8')
const exists = (path: string) => existsSync(new URL(path, root))
const pkg = JSON.parse(read('package.json')) as { version: string; files: string[] }
const SETTINGS = new Set(Object.keys(SettingsSchema.shape))
/** Where the configuration table is documented. */
const CONFIGURATION_DOC = 'docs/configuration.md'

/** The variables of the configuration table (its first column). */
function documentedVariables(): Set<string> {
  const doc = read(CONFIGURATION_DOC)
  const table = /\n\| Variable +\| Flag[^\n]*\n\|[-| ]+\n((?:\|[^\n]*\n)+)/.exec(doc)?.[1]
  if (table === undefined) throw new Error(`${CONFIGURATION_DOC} has no configuration table`)
  return new Set(table.split('\n').flatMap((row) => /^\| `([A-Z_]+)`/.exec(row)?.[1] ?? []))
}

const stages = parseDockerfile(read('Dockerfile'))
const final = stages.at(-1)!
const finalOf = (name: string) => final.instructions.filter((i) => i.name === name)
const lastOf = (name: string): Instruction | undefined => finalOf(name).at(-1)
const imageEnv = Object.assign({}, ...finalOf('ENV').map((i) => envPairs(i.text))) as Record<string, string>

/** `dockerignore` patterns as Docker reads them (the recipe uses no `!` exceptions). */
const ignored = read('.dockerignore')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'))
const isIgnored = (path: string) =>
  ignored.some((pattern) => {
    const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/|$)`)
    return re.test(path)
  })

describe('the Dockerfile', () => {
  it('builds in stages on Node 26, the active LTS, pinned by major', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2)
    for (const stage of stages) expect(stage.image, `stage ${stage.index}`).toMatch(/^node:26(-[a-z]+)?$/)
    expect(new Set(stages.map((s) => s.name).filter(Boolean)).size).toBe(stages.length - 1) // every build stage named
  })

  it('ships production dependencies only, installed from the lock file without install scripts', () => {
    const installs = stages.flatMap((s) =>
      s.instructions.filter((i) => i.name === 'RUN' && /\bnpm (ci|install)\b/.test(i.text)),
    )
    expect(installs.length).toBeGreaterThanOrEqual(2)
    for (const run of installs) {
      expect(run.text, run.text).toMatch(/\bnpm ci\b/) // the lock file, never a fresh resolution
      expect(run.text, run.text).toMatch(/--ignore-scripts\b/) // `prepare` would build before the sources
    }
    // The final stage installs nothing itself; its node_modules come from a stage with --omit=dev.
    expect(finalOf('RUN').filter((i) => /\bnpm\b/.test(i.text))).toEqual([])
    const copied = finalOf('COPY').filter((i) => /\bnode_modules\b/.test(i.text))
    expect(copied).toHaveLength(1)
    const from = /--from=(\S+)/.exec(copied[0]!.text)?.[1]
    const source = stages.find((s) => s.name === from)
    expect(source, `stage ${from}`).toBeDefined()
    expect(source!.instructions.some((i) => i.name === 'RUN' && /npm ci .*--omit=dev/.test(i.text))).toBe(
      true,
    )
  })

  it('copies what the service reads at run time, from the build context or the build stage', () => {
    const finalCopies = finalOf('COPY').map((i) => i.text)
    const fromContext = finalCopies
      .filter((t) => !t.startsWith('--from='))
      .flatMap((t) => t.split(/\s+/).slice(0, -1))
    const fromBuild = finalCopies
      .filter((t) => t.startsWith('--from='))
      .flatMap((t) => t.split(/\s+/).slice(1, -1))
    for (const file of pkg.files) {
      const top = file.split('/')[0]!
      expect(
        fromContext.includes(file) ||
          fromContext.includes(top) ||
          fromBuild.some((p) => p.endsWith(`/${top}`)),
        `${file} (package.json "files") is in the image`,
      ).toBe(true)
    }
    expect(fromContext).toContain('package.json') // the version, read at start (src/core/version.ts)
    for (const stage of stages)
      for (const copy of stage.instructions.filter((i) => i.name === 'COPY' && !i.text.startsWith('--from=')))
        for (const path of copy.text.split(/\s+/).slice(0, -1)) {
          expect(exists(path), `${path} exists`).toBe(true)
          expect(isIgnored(path), `${path} is not in .dockerignore`).toBe(false)
        }
  })

  it('keeps local and generated files out of the build context', () => {
    for (const path of ['node_modules', '.git', 'dist', 'bench/corpus', 'coverage'])
      expect(isIgnored(path), path).toBe(true)
  })

  it('runs as a user other than root', () => {
    const user = lastOf('USER')?.text
    expect(user).toBeDefined()
    expect(user).not.toMatch(/^(root|0)(:|$)/)
    const entry = final.instructions.findIndex((i) => i.name === 'ENTRYPOINT' || i.name === 'CMD')
    expect(final.instructions.findIndex((i) => i.name === 'USER')).toBeLessThan(entry)
  })

  it('sets only settings of the configuration table, and listens on every interface on the port it exposes', () => {
    for (const name of Object.keys(imageEnv).filter((n) => n !== 'NODE_ENV')) {
      expect(SETTINGS.has(name), `${name} is a setting (src/config.ts)`).toBe(true)
      expect(documentedVariables().has(name), `${name} is in the configuration table`).toBe(true)
    }
    expect(imageEnv.NODE_ENV).toBe('production')
    expect(imageEnv.HOST).toBe('0.0.0.0') // the default, 127.0.0.1, is unreachable from outside a container
    const config = loadConfig(imageEnv)
    expect(lastOf('EXPOSE')?.text).toBe(String(config.http.port))
  })

  it('checks /readyz with a Node script of the image, in exec form (no shell)', () => {
    const check = lastOf('HEALTHCHECK')!
    expect(check.exec).toEqual(['node', 'scripts/healthcheck.js'])
    expect(exists('scripts/healthcheck.js')).toBe(true)
    expect(finalOf('COPY').some((i) => i.text.split(/\s+/)[0] === 'scripts/healthcheck.js')).toBe(true)
    expect(read('scripts/healthcheck.js')).toContain('/readyz')
    const options = instructionOptions(check.text)
    expect(Object.keys(options).sort()).toEqual(['interval', 'retries', 'start-period', 'timeout'])
    // A large snapshot's first load (1 000 000 records: about 30 s on an idle 2-core machine,
    // docs/scale.md) fits in the start period, with room for a busy machine.
    expect(Number.parseInt(options['start-period']!)).toBeGreaterThanOrEqual(90)
  })

  it('starts the command in exec form, node as PID 1 (it handles SIGTERM itself), serve by default', () => {
    expect(lastOf('ENTRYPOINT')?.exec).toEqual(['node', 'dist/cli/main.js'])
    expect(lastOf('CMD')?.exec).toEqual(['serve'])
    expect(lastOf('STOPSIGNAL')?.text ?? 'SIGTERM').toBe('SIGTERM')
    expect(read('src/service/service.ts')).toMatch(/closeWithGrace\(/)
  })
})

type ComposeService = {
  build?: string
  image?: string
  command?: string[]
  environment?: Record<string, string>
  read_only?: boolean
  user?: string
  tmpfs?: string[]
  volumes?: string[]
  ports?: string[]
  networks?: string[] | Record<string, { ipv4_address?: string } | null>
  healthcheck?: { test: string[]; start_period?: string }
  depends_on?: Record<string, { condition: string }>
}
const compose = parse(read('compose.yaml'), { merge: true }) as {
  services: Record<string, ComposeService>
  networks: Record<string, { ipam?: { config: { subnet: string }[] } }>
}
const services = compose.services
/** The service's own containers: those built from this repository. */
const ours = Object.entries(services).filter(([, s]) => s.build === '.')
const REPLICAS = ['replica-1', 'replica-2']

/** A value as the service gets it: written out, never left to compose's interpolation (`${X:-…}`). */
const literal = (value: unknown) => {
  const text = String(value)
  if (text.includes('$'))
    throw new Error(`compose.yaml: ${text} depends on the environment of whoever runs compose`)
  return text
}

describe('compose.yaml', () => {
  it('holds the documented topology', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['nginx', 'postgres', 'publish', 'redis', ...REPLICAS].sort(),
    )
    expect(ours.map(([name]) => name).sort()).toEqual(['publish', ...REPLICAS].sort())
    expect(read('docs/operations.md')).toMatch(/compose\.yaml/)
  })

  it('gives the service only settings of the configuration table, each valid', () => {
    const documented = documentedVariables()
    for (const [name, service] of ours) {
      const env = Object.fromEntries(
        Object.entries(service.environment ?? {}).map(([k, v]) => [k, literal(String(v))]),
      )
      for (const variable of Object.keys(env)) {
        expect(SETTINGS.has(variable), `${name}: ${variable} is a setting (src/config.ts)`).toBe(true)
        expect(documented.has(variable), `${name}: ${variable} is in the configuration table`).toBe(true)
      }
      expect(() => loadConfig({ ...env }), name).not.toThrow()
    }
  })

  it('runs the image as built: read-only, never as root, its version the package’s', () => {
    for (const [name, service] of ours) {
      expect(service.image, name).toBe(`reference-records:${pkg.version}`)
      expect(service.read_only, name).toBe(true)
      expect(service.user ?? 'node', name).not.toMatch(/^(root|0)(:|$)/)
    }
    expect(services.nginx!.read_only).toBe(true)
  })

  it('wires each replica to PostgreSQL, Redis and nginx as docs/operations.md describes', () => {
    const nginxNetworks = services.nginx!.networks as Record<string, { ipv4_address?: string }>
    const nginxAddress = Object.values(nginxNetworks)[0]!.ipv4_address
    const [published, containerPort] = services.nginx!.ports![0]!.split(':')
    for (const name of REPLICAS) {
      const replica = services[name]!
      const env = Object.fromEntries(
        Object.entries(replica.environment!).map(([k, v]) => [k, literal(String(v))]),
      )
      const config = loadConfig(env)
      expect(replica.command).toEqual(['serve'])
      expect(config.http.host).toBe('0.0.0.0')
      expect(new URL(env.DATABASE_URL!).hostname).toBe('postgres')
      expect(new URL(env.REDIS_URL!).hostname).toBe('redis')
      expect(env.TRUST_PROXY).toBe(nginxAddress) // only nginx's X-Forwarded-For is believed
      expect(new URL(env.PUBLIC_BASE_URL!).port).toBe(published) // Location headers point at nginx
      expect(replica.healthcheck?.test).toEqual(['CMD', ...lastOf('HEALTHCHECK')!.exec!])
      expect(replica.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        publish: { condition: 'service_completed_successfully' },
      })
    }
    expect(services.nginx!.depends_on).toEqual(
      Object.fromEntries(REPLICAS.map((r) => [r, { condition: 'service_healthy' }])),
    )
    expect(containerPort).toBe('80')
    const subnet = Object.values(compose.networks)[0]!.ipam!.config[0]!.subnet
    expect(nginxAddress!.split('.').slice(0, 3).join('.')).toBe(subnet.split('.').slice(0, 3).join('.'))
    for (const name of ['postgres', 'redis']) expect(services[name]!.healthcheck?.test[0], name).toBe('CMD')
  })

  it('publishes the bundled records, mounted as a deployment mounts its own, before the replicas start', () => {
    const publish = services.publish!
    expect(publish.command?.[0]).toBe('publish')
    const file = publish.command![1]!
    const mount = publish
      .volumes!.map((v) => v.split(':'))
      .find(([, target]) => file.startsWith(`${target}/`))
    expect(mount, `${file} is on a mounted volume`).toBeDefined()
    const onHost = `${mount![0]!.replace(/^\.\//, '')}${file.slice(mount![1]!.length)}`
    expect(onHost).toBe('data/records.json')
    expect(exists(onHost)).toBe(true)
    expect(mount![2]).toBe('ro')
    expect(Object.keys(publish.environment!)).toEqual(['DATABASE_URL'])
    expect(publish.environment!.DATABASE_URL).toBe(services['replica-1']!.environment!.DATABASE_URL)
    expect(publish.depends_on).toEqual({ postgres: { condition: 'service_healthy' } })
  })

  it('puts the configuration of docs/operations.md in front of the replicas, on their port', () => {
    const mount = services
      .nginx!.volumes!.map((v) => v.split(':'))
      .find(([, target]) => target!.startsWith('/etc/nginx/'))
    const file = mount![0]!.replace(/^\.\//, '')
    const conf = read(file).replace(/^#[^\n]*\n/gm, '')
    const port = String(loadConfig({ PORT: literal(services['replica-1']!.environment!.PORT!) }).http.port)
    expect(conf.trim()).toBe(
      documentedNginxBlock()
        .replace('server 10.0.0.11:8080;', `server replica-1:${port};`)
        .replace('server 10.0.0.12:8080;', `server replica-2:${port};`)
        .trim(),
    )
  })
})
