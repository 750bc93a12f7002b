/** What one bench run measures, and for how long: the targets, their goals and the run options. */
import type { Goal } from './report.js'
import type { ServerId } from './servers.js'

type MixName = 'api' | 'api-br' | 'api-100k' | 'mcp-legacy' | 'mcp-modern'

/** One measured line of the table: a server driven with a mix. */
export type Measurement = { id: string; label: string; server: ServerId; mix: MixName; goal?: Goal }

export const REFERENCE_ID = 'reference'
export const PEER_ID = 'peer'

/** Issue 7's targets, in the order of the first pass (later passes rotate it). */
export const MEASUREMENTS: readonly Measurement[] = [
  {
    id: REFERENCE_ID,
    label: 'reference: bare node:http, one pre-built buffer',
    server: 'reference',
    mix: 'api',
  },
  { id: 'nginx', label: 'nginx static file (machine ceiling)', server: 'nginx', mix: 'api' },
  // No goal: how much of the reference the contract's header fields alone leave (docs/benchmarks.md).
  {
    id: 'reference-fields',
    label: "reference + the service's header fields",
    server: 'reference-fields',
    mix: 'api',
  },
  {
    id: 'off',
    label: 'service, quota off',
    server: 'off',
    mix: 'api',
    goal: { vsReference: 0.8, vsPeer: 2.5 },
  },
  {
    id: 'memory',
    label: 'service, in-memory quota',
    server: 'memory',
    mix: 'api',
    goal: { vsReference: 0.7, vsPeer: 2.5 },
  },
  {
    id: 'redis',
    label: 'service, Redis quota',
    server: 'redis',
    mix: 'api',
    goal: { vsReference: 0.45, vsPeer: 2.5 },
  },
  { id: PEER_ID, label: 'peer baseline: Fastify + MiniSearch + JSON.stringify', server: 'peer', mix: 'api' },
  // The same mix asking for Brotli: answers compressed once per prepared body, then sent as they are.
  {
    id: 'off-br',
    label: 'service, quota off, the mix with Accept-Encoding: br',
    server: 'off',
    mix: 'api-br',
  },
  {
    id: 'mcp-legacy',
    label: 'service POST /mcp, 2025 stateless (JSON answer), quota off',
    server: 'off',
    mix: 'mcp-legacy',
  },
  {
    id: 'mcp-modern',
    label: 'service POST /mcp, 2026-07-28 envelope (JSON answer), quota off',
    server: 'off',
    mix: 'mcp-modern',
  },
  { id: 'off-100k', label: 'service, quota off, 100 000-record corpus', server: 'off-100k', mix: 'api-100k' },
]

export type RunOptions = {
  quick: boolean
  passes: number
  /** Seconds of each measured wrk run. */
  durationS: number
  /** Seconds of the unrecorded run before the passes, per target. */
  warmupS: number
  /** Seconds of each fixed-rate (h2load) run. */
  fixedRateS: number
  connections: number
  profile: boolean
  build: boolean
  /** Rewrite the generated part of docs/benchmarks.md (full runs only by default). */
  docs: boolean
  /** The servers' Node: `current`, a major version fetched with npx, or a binary's path (server-node.ts). */
  node: string
}

/**
 * Defaults: about 10 minutes for the full run (10 targets × 9 passes × 4 s, plus warm-up, fixed-rate
 * runs, the 100k corpus load and profiles), about 3 for --quick. Many short passes rather than a few
 * long ones: a pass then takes well under a minute, and the machine's drift over minutes (one
 * target at 43k req/s in one pass and 34k in the next, while the reference held) falls on every
 * target of a pass alike, so the per-pass ratios cancel it.
 */
export function parseOptions(argv: readonly string[]): RunOptions {
  const quick = argv.includes('--quick')
  /** Options followed by a value; the others are flags. */
  const valued = ['--passes', '--duration', '--node']
  const text = (name: string): string | undefined => {
    const i = argv.indexOf(name)
    if (i === -1) return undefined
    const given = argv[i + 1]
    if (given === undefined || given.startsWith('--')) throw new Error(`bench: ${name} needs a value`)
    return given
  }
  const value = (name: string, fallback: number) => {
    const given = text(name)
    if (given === undefined) return fallback
    const n = Number(given)
    if (!Number.isFinite(n) || n <= 0) throw new Error(`bench: ${name} needs a positive number`)
    return n
  }
  const known = ['--quick', ...valued, '--profile', '--no-profile', '--no-build', '--no-docs']
  const unknown = argv.filter(
    (a, i) => a.startsWith('--') && !known.includes(a) && !valued.includes(argv[i - 1] ?? ''),
  )
  if (unknown.length > 0)
    throw new Error(`bench: unknown option ${unknown.join(', ')}; known: ${known.join(' ')}`)
  const passes = Math.max(3, Math.round(value('--passes', quick ? 3 : 9))) // fewer than 3 gives no usable median
  return {
    quick,
    passes,
    durationS: value('--duration', quick ? 3 : 4),
    warmupS: quick ? 2 : 5,
    fixedRateS: quick ? 3 : 12,
    connections: 32,
    // Profiles take a minute or two: on in full runs, on request (--profile) in quick ones.
    profile: !argv.includes('--no-profile') && (!quick || argv.includes('--profile')),
    build: !argv.includes('--no-build'),
    docs: !argv.includes('--no-docs') && !quick,
    node: text('--node') ?? 'current',
  }
}
