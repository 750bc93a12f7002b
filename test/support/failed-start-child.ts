/**
 * A process that starts the service in a way that fails, for test/integration/failed-start.test.ts:
 * it prints the refusal and then does nothing, so it exits by itself only if the failed start
 * released everything it had opened (a Redis client left open reconnects, and holds the process,
 * for ever). Run with `node --import tsx`; SCENARIO and REDIS_URL (and PORT for `listen`) in the environment.
 */
import { loadConfig } from '../../src/config.js'
import { createService, startServer } from '../../src/service/service.js'

const FIXTURE = new URL('../fixtures/records.small.json', import.meta.url).pathname
const scenario = process.env.SCENARIO
const settings = {
  HOST: '127.0.0.1',
  PORT: process.env.PORT ?? '0',
  REDIS_URL: process.env.REDIS_URL!,
  LOG_LEVEL: 'silent',
  RECORDS_FILE: FIXTURE,
}

async function start(): Promise<unknown> {
  switch (scenario) {
    // The HTTP app cannot be built (Node refuses a headers timeout longer than the request timeout), after the quota opened Redis.
    case 'http-app':
      return createService(loadConfig(settings), { timeouts: { headersMs: 20_000, requestMs: 10_000 } })
    // Everything is built, Redis included; listening fails (the port is taken).
    case 'listen':
      return startServer(loadConfig(settings))
    // The records file is refused.
    case 'records':
      return createService(loadConfig({ ...settings, RECORDS_FILE: '/nonexistent/records.json' }))
    // Control: a start that succeeds and is not closed holds Redis open.
    case 'control':
      return createService(loadConfig(settings))
    default:
      throw new Error(`unknown SCENARIO ${scenario}`)
  }
}

try {
  await start()
  console.log(JSON.stringify({ started: true, resources: process.getActiveResourcesInfo() }))
} catch (err) {
  console.log(JSON.stringify({ refused: (err as Error).message }))
}
// Should the process hang, say what holds it (an unref'd timer does not hold it itself).
setTimeout(
  () => console.error(JSON.stringify({ stillOpen: process.getActiveResourcesInfo() })),
  3_000,
).unref()
