/**
 * `npm run fuzz`: the fuzz suite's long run, against the built service (npm run build first).
 * Options: --seed S (default: the date), --minutes N (default 10). Prints progress every few
 * seconds and the figures at the end; exits 1 on any violation, an error log line, an unclean exit
 * or memory that does not level off (harness.ts).
 */
import { parseArgs } from 'node:util'
import { MAX_RSS_MIB, MAX_SECOND_HALF_GROWTH_MIB, describeCost, runFuzz } from './harness.js'
import { SAMPLE_IDS, startFuzzTarget } from './service.js'

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: new Date().toISOString().slice(0, 10) },
    minutes: { type: 'string', default: '10' },
    'per-minute': { type: 'string', default: '9999999' },
  },
})
const minutes = Number(values.minutes)
const target = await startFuzzTarget({ RATE_LIMIT_PER_MINUTE: values['per-minute'] })
let shown = 0
const stats = await runFuzz({
  port: target.port,
  pid: target.pid,
  seed: values.seed,
  durationMs: minutes * 60_000,
  ids: SAMPLE_IDS,
  onProgress: (s) => {
    if (s.seconds - shown < 10) return
    shown = s.seconds
    process.stderr.write(
      `${s.seconds.toFixed(0)} s: ${s.requests} requests, ${s.violations.length} violations, RSS ${Math.round(s.rssMaxKiB / 1024)} MiB max\n`,
    )
  },
})
const code = await target.stop()
const errorLines = target.spawned
  .stdout()
  .split('\n')
  .filter((l) => /"level":(50|60)/.test(l))
process.stdout.write(
  [
    `seed ${values.seed}: ${stats.cases} cases, ${stats.requests} requests, ${stats.responses} responses in ${stats.seconds.toFixed(0)} s`,
    `RSS ${Math.round(stats.rssStartKiB / 1024)} MiB at start, ${Math.round(stats.rssEndKiB / 1024)} MiB at the end, ${Math.round(stats.rssMaxKiB / 1024)} MiB max, +${Math.round(stats.rssSecondHalfGrowthKiB / 1024)} MiB in the second half`,
    `statuses ${JSON.stringify(stats.byStatus)}`,
    `cases ${JSON.stringify(stats.byKind)}`,
    describeCost(stats),
    `exit code on SIGTERM ${code}; error log lines ${errorLines.length}`,
    `violations ${stats.violations.length}`,
    ...stats.violations.slice(0, 20).map((v) => `  ${v}`),
  ].join('\n') + '\n',
)
const memoryBounded =
  stats.rssSecondHalfGrowthKiB < MAX_SECOND_HALF_GROWTH_MIB * 1024 && stats.rssMaxKiB < MAX_RSS_MIB * 1024
if (!memoryBounded)
  process.stdout.write(
    `memory not bounded: over ${MAX_SECOND_HALF_GROWTH_MIB} MiB of growth in the second half, or over ${MAX_RSS_MIB} MiB\n`,
  )
process.exitCode =
  stats.violations.length > 0 || code !== 0 || errorLines.length > 0 || !memoryBounded ? 1 : 0
