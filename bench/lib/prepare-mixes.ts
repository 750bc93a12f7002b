/**
 * Resolves each measurement's request mix against its own server (ETags, status checks) and writes
 * the Lua file wrk reads. The reference and nginx get the service's mix byte for byte: same paths and
 * headers, which they ignore.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { planMcpMix } from './mcp-mix.js'
import { planApiMix, resolveMix, sampleCorpus, type CorpusSample } from './mix.js'
import { toLuaMix, type MixRequest, type PlannedRequest } from './mix-file.js'
import type { Measurement } from './plan.js'
import { ECHO_SERVERS, type Server, type ServerId } from './servers.js'

export type PreparedMix = {
  luaFile: string
  planned: PlannedRequest[]
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
  const resolved = new Map<string, MixRequest[]>()
  const out = new Map<string, PreparedMix>()
  const echoes = (m: Measurement) => ECHO_SERVERS.has(m.server)
  // Services and the peer first: the reference and nginx reuse the resolved service mix.
  for (const m of [...measurements].sort((a, b) => Number(echoes(a)) - Number(echoes(b)))) {
    const server = servers.get(m.server)
    if (server === undefined) continue
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
    const requests = echoes(m) ? resolved.get('off') : await resolveMix(server.url, planned)
    if (requests === undefined)
      throw new Error(`bench: ${m.id} needs the service's mix, and the quota-off service is not running`)
    resolved.set(m.id, requests)
    const luaFile = join(workDir, `mix-${m.id}.lua`)
    writeFileSync(luaFile, toLuaMix(requests))
    out.set(m.id, { luaFile, planned, fixedRate: fixedRateRequests(requests, planned) })
  }
  return out
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
