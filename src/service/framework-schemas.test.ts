/**
 * No route declares a Fastify schema (parameters are validated by the core's zod schemas), so the app
 * is built without Fastify's schema compilers: Ajv and fast-json-stringify are not even loaded, which
 * saves their loading at every start. A route that declared a schema would fail at start, loudly.
 */
import { createRequire } from 'node:module'
import { pino } from 'pino'
import { expect, it } from 'vitest'
import { loadConfig } from '../config.js'
import { createService } from './service.js'
import { loadInProcess } from '../core/snapshots/load-snapshot.js'
import { send } from '../../test/support/in-process.js'

const SMALL_FIXTURE = new URL('../../test/fixtures/records.small.json', import.meta.url).pathname
const COMPILERS = /[\\/]@fastify[\\/](ajv-compiler|fast-json-stringify-compiler)[\\/]/

it("builds and serves the app without loading Fastify's schema compilers", async () => {
  // Another file of the worker may have built a plain Fastify, which loads them: forgotten here, they
  // are in the module cache again only if this service loads them.
  const cache = createRequire(import.meta.url).cache
  for (const path of Object.keys(cache)) if (COMPILERS.test(path)) delete cache[path]
  const service = await createService(loadConfig({ RECORDS_FILE: SMALL_FIXTURE }), {
    logger: pino({ level: 'silent' }),
    load: loadInProcess,
  })
  try {
    expect((await send(service.app, { target: '/api/v1/facts?q=vitesse&po_live=1' })).status).toBe(200)
    expect((await send(service.app, { target: '/api/v1/facts?limit=x&po_live=1' })).status).toBe(400)
    const loaded = Object.keys(cache)
    expect(loaded.some((path) => /[\\/]fastify[\\/]fastify\.js$/.test(path))).toBe(true) // the check looks where Fastify's modules are
    expect(loaded.filter((path) => COMPILERS.test(path))).toEqual([])
  } finally {
    await service.close()
  }
})

it('refuses, at start, a route that declares a Fastify schema', async () => {
  const service = await createService(loadConfig({ RECORDS_FILE: SMALL_FIXTURE }), {
    logger: pino({ level: 'silent' }),
    load: loadInProcess,
  })
  try {
    service.app.get('/declared', { schema: { querystring: { type: 'object' } } }, async () => ({}))
    await expect(service.app.ready()).rejects.toThrow(/validates with the core's zod schemas/)
  } finally {
    await service.close()
  }
})
