/**
 * PostgreSQL for integration and end-to-end tests: each test file gets a fresh schema of its own
 * (tables, notification traffic and locks are all keyed by it), dropped afterwards. Several
 * engineers run tests on one server at once, so nothing outside that schema is touched.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { migrate } from '../../src/core/records/postgres/migrations.js'
import {
  hashesOf,
  planAgainstCurrent,
  prepareSnapshot,
  publishSnapshot,
  type Plan,
  type PublishOptions,
  type Published,
} from '../../src/core/records/postgres/publisher.js'
import type { Fact } from '../../src/core/records/record.js'
import { serviceAvailable } from './services.js'

export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

export const postgresAvailable = () => serviceAvailable('PostgreSQL', POSTGRES_URL)

/** `url` with its search_path set to `schema` (through libpq's `options` parameter, which node-postgres reads too). */
function urlWithSchema(url: string, schema: string): string {
  const u = new URL(url)
  u.searchParams.set('options', `-c search_path=${schema}`)
  return u.href
}

export type TestSchema = { name: string; url: string; drop(): Promise<void> }

/** Creates an empty schema with a random name; `url` connects with it as the current schema. */
export async function createTestSchema(prefix = 'rr_test'): Promise<TestSchema> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: POSTGRES_URL })
  await admin.connect()
  try {
    await admin.query(`CREATE SCHEMA ${name}`)
  } finally {
    await admin.end()
  }
  return {
    name,
    url: urlWithSchema(POSTGRES_URL, name),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_URL })
      await client.connect()
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`)
      } finally {
        await client.end()
      }
    },
  }
}

/** A connected client on `url`, ended by the returned function. */
export async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  return client
}

/** Publishes `records` the way `reference-records publish` does (migrate, compare, store, notify), from the test process. */
export async function publishRecords(
  url: string,
  records: readonly Fact[],
  options: PublishOptions = {},
): Promise<Published & { plan: Plan }> {
  const client = await connect(url)
  try {
    await migrate(client)
    const snapshot = prepareSnapshot(records)
    const plan = await planAgainstCurrent(client, hashesOf(snapshot))
    return { ...(await publishSnapshot(client, snapshot, plan, options)), plan }
  } finally {
    await client.end()
  }
}
