/**
 * CPU profile of the service under the same load, for targets that miss a goal: the service is started
 * again with node --cpu-prof (it writes the profile when it exits), driven by wrk with the same mix,
 * stopped, and the samples taken while wrk was measuring are summarised.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { Bench } from './measure.js'
import { freePort, stop } from './processes.js'
import { summariseProfileFile, type ProfileSummary } from './profile.js'
import { startServer, type ServerContext, type ServerId } from './servers.js'
import { runWrk } from './wrk.js'

export type ProfileResult = { id: string; file: string; rps: number; summary: ProfileSummary }

export async function profileService(
  b: Bench,
  measurementId: string,
  ctx: Omit<ServerContext, 'port' | 'cpuProfDir'>,
): Promise<ProfileResult> {
  const m = b.measurements.find((x) => x.id === measurementId)!
  const dir = join(ctx.root, 'bench/results/profiles', measurementId)
  mkdirSync(dir, { recursive: true })
  for (const f of readdirSync(dir)) if (f.endsWith('.cpuprofile')) rmSync(join(dir, f)) // only this run's profile
  const startedAt = performance.now()
  const server = await startServer(m.server as ServerId, { ...ctx, port: await freePort(), cpuProfDir: dir })
  const mixFile = b.mixes.get(m.id)!.luaFile
  const load = (durationS: number) =>
    runWrk({ url: server.url, mixFile, durationS, connections: b.options.connections })
  try {
    await load(b.options.warmupS)
    const fromUs = (performance.now() - startedAt) * 1e3
    const r = await load(b.options.durationS)
    const toUs = (performance.now() - startedAt) * 1e3
    await stop(server.child, 10_000)
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))
    if (file === undefined) throw new Error(`no .cpuprofile written in ${dir}`)
    const path = join(dir, file)
    // The process starts a few ms after startedAt, so the window is that much late: harmless at 12 s.
    return {
      id: measurementId,
      file: relative(ctx.root, path),
      rps: r.rps,
      summary: summariseProfileFile(path, 15, { fromUs, toUs }),
    }
  } finally {
    await stop(server.child, 10_000)
  }
}
