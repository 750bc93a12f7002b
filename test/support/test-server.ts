/** Starts the real service on 127.0.0.1:<random port> and fetches from it, checking every response against its OpenAPI document. */
import { loadConfig } from '../../src/config.js'
import { startServer, type RunningServer, type ServiceOptions } from '../../src/service/service.js'
import { OpenApiValidator, type CheckedResponse } from './openapi-validator.js'

export const SMALL_FIXTURE = new URL('../fixtures/records.small.json', import.meta.url).pathname

export type TestServer = RunningServer & {
  validator: OpenApiValidator
  /** fetch without following redirects; the response is checked against the OpenAPI document. */
  get(path: string, init?: RequestInit): Promise<CheckedResponse>
  /** Like get, for any method, with no document check (for HEAD, OPTIONS and refused methods). */
  raw(path: string, init?: RequestInit): Promise<CheckedResponse>
}

export async function startTestServer(
  env: Record<string, string> = {},
  options: ServiceOptions = {},
): Promise<TestServer> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    // Records from the small fixture, unless the test reads them from PostgreSQL.
    ...(env.DATABASE_URL === undefined ? { RECORDS_FILE: SMALL_FIXTURE } : {}),
    LOG_LEVEL: 'silent',
    // A quota high enough never to refuse: its headers are on every response without limiting the suite.
    RATE_LIMIT_PER_MINUTE: '1000000',
    ...env,
  })
  // Idle keep-alive connections (fetch keeps them) are closed quickly: a test run stops dozens of servers.
  const server = await startServer(config, { drain: { graceMs: 20 }, ...options })
  const raw = async (path: string, init: RequestInit = {}): Promise<CheckedResponse> => {
    const res = await fetch(server.url + path, { redirect: 'manual', ...init })
    const text = await res.text()
    let body: unknown
    try {
      body = text === '' ? undefined : JSON.parse(text)
    } catch {
      body = text
    }
    return { status: res.status, headers: res.headers, text, body, path: path.split('?')[0]! }
  }
  const doc = (await raw('/api/v1/openapi.json?po_live=1')).body
  const validator = new OpenApiValidator(doc)
  const get = async (path: string, init?: RequestInit) => {
    const res = await raw(path, init)
    validator.check(res)
    return res
  }
  return { ...server, validator, get, raw }
}
