/**
 * Resolves each measurement's request mix against its own server (ETags, status checks) and writes
 * the Lua file wrk reads. The floors (reference, nginx, replay) get the quota-off service's mix byte
 * for byte: same paths and headers, which the reference and nginx ignore and the replay answers as
 * the service did.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { planMcpMix } from './mcp-mix.js'
import { planApiMix, resolveMix, sampleCorpus, type CorpusSample } from './mix.js'
import { toLuaMix, type MixRequest, type PlannedRequest } from './mix-file.js'
import type { Measurement } from './plan.js'
import { FLOOR_SERVERS, type Server, type ServerId } from './servers.js'

export type PreparedMix = {
  luaFile: string
  planned: PlannedRequest[]
  /** The requests exactly as wrk sends them (ETags resolved). */
  requests: MixRequest[]
  /** What h2load sends: it cannot vary headers or bodies per request, so no 304s and one MCP body. */
  fixedRate: { paths: string[]; headers?: string[]; body?: string }
}

export async function prepareMixes(
  measurements: readonly Measurement[],
  servers: ReadonlyMap<ServerId, Server>,
  workDir: string,
): Promise<Map<string, PreparedMix>> {
  const samples = new Map<ServerId, CorpusSample>()
  const sampleOf = async (id: ServerId) =>
    samples.get(id) ?? samples.set(id, await sampleCorpus(servers.get(id)!.url)).get(id)!
  const out = new Map<string, PreparedMix>()
  for (const m of measurements) {
    const server = servers.get(m.server)
    if (server === undefined || FLOOR_SERVERS.has(m.server)) continue
    // The API mix is planned from the sample service; the 100k one from the 100k service.
    const planned =
      m.mix === 'api-100k'
        ? planApiMix(await sampleOf('off-100k'))
        : m.mix === 'api'
          ? planApiMix(await sampleOf('off'))
          : m.mix === 'api-br'
            ? planApiMix(await sampleOf('off')).map((p) => ({
                ...p,
                headers: { ...p.headers, 'Accept-Encoding': 'br' },
              }))
            : planMcpMix(await sampleOf('off'), m.mix === 'mcp-legacy' ? 'legacy' : 'modern')
    const requests = await resolveMix(server.url, planned)
    const luaFile = join(workDir, `mix-${m.id}.lua`)
    writeFileSync(luaFile, toLuaMix(requests))
    out.set(m.id, { luaFile, planned, requests, fixedRate: fixedRateRequests(requests, planned) })
  }
  return out
}

/** The quota-off service's prepared mix named `mix`: what the floors are driven with and replay. */
export function serviceMix(
  measurements: readonly Measurement[],
  mixes: ReadonlyMap<string, PreparedMix>,
  mix: Measurement['mix'],
): PreparedMix {
  const off = measurements.find((m) => m.server === 'off' && m.mix === mix)
  const prepared = off === undefined ? undefined : mixes.get(off.id)
  if (prepared === undefined)
    throw new Error(`bench: the floors need the quota-off service's ${mix} mix, which was not prepared`)
  return prepared
}

function fixedRateRequests(
  requests: readonly MixRequest[],
  planned: readonly PlannedRequest[],
): PreparedMix['fixedRate'] {
  const first = requests[0]!
  if (first.method === 'POST') {
    const headers = Object.entries(first.headers ?? {}).map(([k, v]) => `${k}: ${v}`)
    return { paths: [first.path], headers, body: first.body }
  }
  const encoding = first.headers?.['Accept-Encoding']
  return {
    paths: planned.filter((p) => p.expect !== 304).map((p) => p.path),
    ...(encoding === undefined ? {} : { headers: [`Accept-Encoding: ${encoding}`] }),
  }
}
