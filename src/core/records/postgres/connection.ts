/** Connection settings of the publishing pipeline's PostgreSQL clients, from one URL. */
import pg, { type ClientConfig } from 'pg'

/** Bounds on talking to the database, so a vanished server is noticed instead of waited for. */
const CONNECT_TIMEOUT_MS = 10_000

/**
 * Client settings for `url`. `application_name` names the role of the connection in
 * pg_stat_activity (unless the URL sets one); TCP keep-alive lets a dead peer be noticed.
 */
export function clientConfig(url: string, applicationName: string): ClientConfig {
  return {
    connectionString: url,
    application_name: applicationName,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  }
}

/** Where the records come from, for logs and messages: the URL without credentials or parameters. */
export function describeDatabase(url: string): string {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}${u.pathname}`
  } catch {
    return 'postgres'
  }
}

/**
 * A connected client for a publishing command. A connection failure becomes one readable error
 * naming the database (never its password), not the driver's bare `ECONNREFUSED`.
 */
export async function connectTo(url: string, applicationName: string): Promise<pg.Client> {
  const client = new pg.Client(clientConfig(url, applicationName))
  client.on('error', () => undefined) // a lost connection fails the query in progress; no crash on top
  try {
    await client.connect()
  } catch (err) {
    throw new Error(`cannot reach PostgreSQL at ${describeDatabase(url)} (${(err as Error).message})`, {
      cause: err,
    })
  }
  return client
}
