/**
 * The servers under test, each started pinned to the server core on its own loopback port: the service
 * in its three quota configurations (and on the 100k corpus), the reference, nginx, the replay floor
 * and the peer.
 */
import type { ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { prepareNginx } from './nginx.js'
import { SERVER_CPU, start, waitForHttp } from './processes.js'
import { BENCH_REDIS_URL } from './redis.js'

export type ServerId = 'off' | 'memory' | 'redis' | 'off-100k' | 'reference' | 'nginx' | 'replay' | 'peer'
export type Server = { id: ServerId; url: string; child: ChildProcess; pid: number }

/** The service in its configurations: started from dist/, ready once /readyz answers 200. */
const SERVICES: ReadonlySet<ServerId> = new Set(['off', 'memory', 'redis', 'off-100k'])
/** Servers that answer every request with the service's reference body, whatever it asks. */
export const ECHO_SERVERS: ReadonlySet<ServerId> = new Set(['reference', 'nginx'])
/**
 * Servers that answer from what the quota-off service answered (one body, or each recorded answer):
 * started once the service's mixes are resolved, and driven with those mixes as they are.
 */
export const FLOOR_SERVERS: ReadonlySet<ServerId> = new Set([...ECHO_SERVERS, 'replay'])

/** Everything a server start needs besides its id. */
export type ServerContext = {
  root: string
  /** The Node binary the Node servers run on (server-node.ts). */
  node: string
  workDir: string
  port: number
  records: string
  redisPrefix: string
  /** Reference and nginx only: the bytes every request is answered with. */
  body?: Buffer
  /** Replay only: the service's recorded answers (record-answers.ts), as JSON. */
  answersFile?: string
  /** Node's --cpu-prof directory: the service then writes a profile when it stops. */
  cpuProfDir?: string
}

const LOG_LEVEL = 'warn' // request logs off for every Node target alike (the peer logs nothing either)

/** Inherited settings that must not change what is measured. */
const DROPPED = new Set([
  'REDIS_URL',
  'REDIS_KEY_PREFIX',
  'TRUST_PROXY',
  'PUBLIC_BASE_URL',
  'HOST',
  'PORT',
  'RATE_LIMIT_PER_MINUTE',
  'NODE_OPTIONS',
])

/** Environment of the service for a quota configuration (issue 7: a, b, c). */
function serviceEnv(id: ServerId, ctx: ServerContext): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !DROPPED.has(k)),
  )
  Object.assign(env, { RECORDS_FILE: ctx.records, LOG_LEVEL, RATE_LIMIT_PER_MINUTE: '0' })
  // The limit is far above what one client can send in 60 s here, so the quota counts but never refuses.
  if (id === 'memory' || id === 'redis') env.RATE_LIMIT_PER_MINUTE = '9999999'
  if (id === 'redis') Object.assign(env, { REDIS_URL: BENCH_REDIS_URL, REDIS_KEY_PREFIX: ctx.redisPrefix })
  return env
}

/** Command and arguments that start server `id` on ctx.port, 127.0.0.1 only. */
function command(id: ServerId, ctx: ServerContext): [string, string[], NodeJS.ProcessEnv?] {
  const port = String(ctx.port)
  const prof = ctx.cpuProfDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${ctx.cpuProfDir}`]
  const tsxTarget = (file: string, args: string[]): [string, string[]] => [
    ctx.node,
    [...prof, '--import', 'tsx', resolve(ctx.root, file), '--port', port, ...args],
  ]
  switch (id) {
    case 'reference':
      return tsxTarget('bench/targets/reference.ts', ['--body-file', writeBody(ctx)])
    case 'replay':
      return tsxTarget('bench/targets/replay.ts', ['--answers-file', ctx.answersFile!])
    case 'peer':
      return tsxTarget('bench/targets/peer.ts', ['--records', ctx.records])
    case 'nginx':
      return ['nginx', prepareNginx(join(ctx.workDir, 'nginx'), ctx.port, ctx.body!)]
    default: {
      const args = [
        ...prof,
        resolve(ctx.root, 'dist/cli/main.js'),
        'serve',
        '--port',
        port,
        '--host',
        '127.0.0.1',
      ]
      return [ctx.node, args, serviceEnv(id, ctx)]
    }
  }
}

function writeBody(ctx: ServerContext): string {
  const file = join(ctx.workDir, 'reference-body.json')
  writeFileSync(file, ctx.body!)
  return file
}

/** Starts `id` pinned to the server core and waits until it answers (the 100k corpus takes a while to index). */
export async function startServer(id: ServerId, ctx: ServerContext): Promise<Server> {
  const [cmd, args, env] = command(id, ctx)
  const child = start(cmd, args, {
    cpu: SERVER_CPU,
    env,
    cwd: ctx.root,
    output: join(ctx.workDir, `${id}.log`),
  })
  const url = `http://127.0.0.1:${ctx.port}`
  const service = SERVICES.has(id)
  await waitForHttp(url + (service ? '/readyz' : '/'), child, id === 'off-100k' ? 180_000 : 30_000)
  if (service) await waitReady(url)
  return { id, url, child, pid: child.pid! }
}

/** /readyz answers 503 until the records are loaded; the 100k corpus takes tens of seconds. */
async function waitReady(url: string): Promise<void> {
  const deadline = Date.now() + 180_000
  while (Date.now() < deadline) {
    if ((await fetch(`${url}/readyz`).catch(() => undefined))?.ok) return
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`${url} not ready after 180 s`)
}
