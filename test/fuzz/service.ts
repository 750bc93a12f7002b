/** Starts the built service as a child process for fuzzing and soaking, and gives its port, pid and record ids. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RECORD_BOUNDS } from '../../src/core/records/record-bounds.js'
import type { Fact } from '../../src/core/records/record.js'
import { spawnCli, type Spawned } from '../support/spawn-service.js'

const SAMPLE: Fact[] = (
  JSON.parse(readFileSync(new URL('../../data/records.json', import.meta.url), 'utf8')) as { records: Fact[] }
).records

const nested = (levels: number): unknown => (levels === 0 ? 'fond' : { niveau: nested(levels - 1) })
const REPEATED = 'vitesse priorité alcool permis autoroute stationnement feu rouge piéton ceinture '

/**
 * Records as large and as deep as a record may be (issue 32), served beside the sample: a text of
 * repeated search words at its bound, every list at its bound, an open field nested to the bound.
 */
const HOSTILE_RECORDS: Fact[] = [
  {
    ...SAMPLE.find((r) => r.kind === 'fact')!,
    id: 'fait-00000000000000f1',
    title: 'Fiche de texte répété à la limite',
    text: REPEATED.repeat(Math.ceil(RECORD_BOUNDS.text / REPEATED.length)).slice(0, RECORD_BOUNDS.text),
  },
  {
    ...SAMPLE.find((r) => r.kind === 'offer')!,
    id: 'offer-00000000000000f2',
    title: 'Offre imbriquée à la limite',
    regions: Array.from({ length: RECORD_BOUNDS.items }, (_, i) => `Région ${i}`),
    offer_data: { price: 1, price_currency: 'EUR', detail: nested(RECORD_BOUNDS.depth - 2) },
  } as Fact,
]

/** The ids the fuzz reads records by: the sample's and the hostile records'. */
export const SAMPLE_IDS: readonly string[] = [...SAMPLE, ...HOSTILE_RECORDS].map((r) => r.id)

/** The sample and the hostile records, as an NDJSON file of a new temporary folder. */
function fuzzRecordsFile(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'rr-fuzz-')), 'records.ndjson')
  writeFileSync(path, [...SAMPLE, ...HOSTILE_RECORDS].map((r) => JSON.stringify(r)).join('\n') + '\n')
  return path
}

export type FuzzTarget = { spawned: Spawned; port: number; pid: number; stop(): Promise<number | null> }

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
    srv.on('error', reject)
  })
}

/** The service on 127.0.0.1, logging warnings and errors only (a long run would log gigabytes otherwise). */
export async function startFuzzTarget(env: Record<string, string> = {}): Promise<FuzzTarget> {
  const port = await freePort()
  const spawned = spawnCli(['serve', '--port', String(port), '--host', '127.0.0.1'], {
    LOG_LEVEL: 'warn',
    RECORDS_FILE: fuzzRecordsFile(),
    // The Hosts the cases send (cases.ts), so that they reach the routes past the DNS-rebinding guard,
    // and the Origin they send (a page of another site, as on a public deployment).
    ALLOWED_HOSTS: 'records.test,x,a,reuser.example',
    ...env,
  })
  const deadline = Date.now() + 30_000
  for (;;) {
    if (spawned.child.exitCode !== null)
      throw new Error(`service did not start:\n${spawned.stdout()}\n${spawned.stderr()}`)
    const up = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) break
    if (Date.now() > deadline) throw new Error('service not ready after 30 s')
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    spawned,
    port,
    pid: spawned.child.pid!,
    stop: async () => {
      spawned.child.kill('SIGTERM')
      return spawned.exited
    },
  }
}
