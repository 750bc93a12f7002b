/**
 * Debian's nginx as the load balancer of a deployment test, started from a temporary prefix with
 * the configuration that docs/operations.md shows (extracted from the document, so the two cannot
 * drift). Never the system nginx; never installed by the test.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const CANDIDATES = ['/usr/sbin/nginx', '/usr/bin/nginx']

/** The nginx binary, or undefined; prints a SKIPPED line (or fails under CI) when there is none. */
export function nginxBinary(): string | undefined {
  const found = CANDIDATES.find((path) => existsSync(path))
  if (found !== undefined) return found
  const reason = `nginx is not installed (apt-get install -y nginx-light)`
  if (process.env.CI) throw new Error(`${reason}: CI requires it`)
  console.warn(`SKIPPED: tests needing nginx (${reason}; or set CI=1 to make this a failure)`)
  return undefined
}

const OPERATIONS = new URL('../../docs/operations.md', import.meta.url)

/** The first ```nginx block of docs/operations.md, as written. */
export function documentedNginxBlock(): string {
  const doc = readFileSync(OPERATIONS, 'utf8')
  const block = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1]
  if (block === undefined) throw new Error('docs/operations.md has no nginx block')
  return block
}

/** The first ```nginx block of docs/operations.md, with its example addresses replaced by the test's. */
export function documentedConfig(listenPort: number, upstreamPorts: readonly [number, number]): string {
  const block = documentedNginxBlock()
  const replacements: [string, string][] = [
    ['server 10.0.0.11:8080;', `server 127.0.0.1:${upstreamPorts[0]};`],
    ['server 10.0.0.12:8080;', `server 127.0.0.1:${upstreamPorts[1]};`],
    ['listen 80;', `listen 127.0.0.1:${listenPort};`],
  ]
  let config = block
  for (const [from, to] of replacements) {
    if (!config.includes(from))
      throw new Error(
        `the nginx block of docs/operations.md no longer has "${from}": update the test with it`,
      )
    config = config.replace(from, to)
  }
  return config
}

export type Nginx = { prefix: string; process: ChildProcess; stop(): Promise<void> }

/** Starts nginx in the foreground around `serverBlocks` (upstream + server), in its own prefix. */
export async function startNginx(binary: string, serverBlocks: string): Promise<Nginx> {
  const prefix = mkdtempSync(join(tmpdir(), 'rr-nginx-'))
  chmodSync(prefix, 0o755) // workers run as nobody when started as root
  const conf = join(prefix, 'nginx.conf')
  writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${prefix}/access.log;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
${serverBlocks}
}
`,
  )
  const child = spawn(binary, ['-p', prefix, '-c', conf, '-e', join(prefix, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (c: Buffer) => (stderr += c))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  // nginx writes its pid file once it listens.
  for (let i = 0; i < 100 && !existsSync(join(prefix, 'nginx.pid')); i++) {
    if (child.exitCode !== null)
      throw new Error(`nginx did not start: ${stderr}${readIfExists(join(prefix, 'error.log'))}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  return {
    prefix,
    process: child,
    async stop() {
      child.kill('SIGQUIT')
      await exited
      rmSync(prefix, { recursive: true, force: true })
    },
  }
}

const readIfExists = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '')

/** nginx's error log (for failure messages). */
export const errorLog = (nginx: Nginx) => readIfExists(join(nginx.prefix, 'error.log'))
