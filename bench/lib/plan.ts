/** What one bench run measures, and for how long: the targets, their goals and the run options. */
import type { Goal } from './report.js'
import type { ServerId } from './servers.js'

type MixName = 'api' | 'api-br' | 'api-100k' | 'mcp-legacy' | 'mcp-modern'

/**
 * One measured line of the table: a server driven with a mix. `floor` names the replay row of the
 * same mix that this row is divided by (its ×floor), in the same pass.
 */
export type Measurement = {
  id: string
  label: string
  server: ServerId
  mix: MixName
  floor?: string
  goal?: Goal
}

export const REFERENCE_ID = 'reference'
export const PEER_ID = 'peer'
const FLOOR_ID = 'replay'
const MCP_FLOOR_ID = 'replay-mcp'
const MCP_MODERN_FLOOR_ID = 'replay-mcp-modern'

/** Issue 7's goal against the peer baseline, for every API row (the ×floor goals are issue 45's). */
const API_PEER_GOAL = 2.5

/** The targets, in the order of the first pass (later passes rotate it). */
export const MEASUREMENTS: readonly Measurement[] = [
  {
    id: REFERENCE_ID,
    label: 'reference: bare node:http, one pre-built buffer',
    server: 'reference',
    mix: 'api',
  },
  { id: 'nginx', label: 'nginx static file (machine ceiling)', server: 'nginx', mix: 'api' },
  {
    id: FLOOR_ID,
    label: "floor: bare node:http replaying the service's answers",
    server: 'replay',
    mix: 'api',
    floor: FLOOR_ID,
  },
  {
    id: 'off',
    label: 'service, quota off',
    server: 'off',
    mix: 'api',
    floor: FLOOR_ID,
    goal: { vsFloor: 0.9, vsPeer: API_PEER_GOAL },
  },
  {
    id: 'memory',
    label: 'service, in-memory quota',
    server: 'memory',
    mix: 'api',
    floor: FLOOR_ID,
    goal: { vsFloor: 0.85, vsPeer: API_PEER_GOAL },
  },
  {
    id: 'redis',
    label: 'service, Redis quota',
    server: 'redis',
    mix: 'api',
    floor: FLOOR_ID,
    goal: { vsFloor: 0.65, vsPeer: API_PEER_GOAL },
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
    id: MCP_FLOOR_ID,
    label: "floor: replay of the service's MCP 2025 answers",
    server: 'replay',
    mix: 'mcp-legacy',
    floor: MCP_FLOOR_ID,
  },
  {
    id: 'mcp-legacy',
    label: 'service POST /mcp, 2025 stateless (JSON answer), quota off',
    server: 'off',
    mix: 'mcp-legacy',
    floor: MCP_FLOOR_ID,
    goal: { vsFloor: 0.5 },
  },
  {
    id: MCP_MODERN_FLOOR_ID,
    label: "floor: replay of the service's MCP 2026-07-28 answers",
    server: 'replay',
    mix: 'mcp-modern',
    floor: MCP_MODERN_FLOOR_ID,
  },
  {
    id: 'mcp-modern',
    label: 'service POST /mcp, 2026-07-28 envelope (JSON answer), quota off',
    server: 'off',
    mix: 'mcp-modern',
    floor: MCP_MODERN_FLOOR_ID,
    goal: { vsFloor: 0.5 },
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
 * Defaults: about 12 minutes for the full run (13 targets × 9 passes × 4 s, plus warm-up, fixed-rate
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
