import { describe, expect, it } from 'vitest'
import { markdownTable, markdownVerdicts, summarise, unmet, type TargetMeasurements } from './report.js'
import type { WrkResult } from './wrk.js'

const run = (rps: number, p99Ms = 2): WrkResult => ({
  requests: rps * 10,
  durationS: 10,
  rps,
  bytesPerRequest: 1000,
  p50Ms: 1,
  p90Ms: 1.5,
  p99Ms,
  maxMs: 9,
  errors: 0,
})

const measured: TargetMeasurements[] = [
  { id: 'reference', label: 'reference', passes: [run(60_000), run(48_000), run(62_400)] },
  {
    id: 'replay',
    label: 'floor',
    passes: [run(50_000), run(40_000), run(52_000)],
    // 20 µs of CPU per request in every pass: the server had its core to itself in none of them.
    serverCpuSeconds: [10, 8, 10.4],
    floor: 'replay',
  },
  { id: 'peer', label: 'peer', passes: [run(10_000), run(8_000), run(10_400)] },
  {
    id: 'off',
    label: 'service, quota off',
    passes: [run(42_000, 3), run(33_000, 5), undefined],
    // 25 µs per request in the first pass, 24 in the second.
    serverCpuSeconds: [10.5, 7.92, undefined],
    floor: 'replay',
    goal: { vsFloor: 0.8, vsPeer: 2.5 },
  },
  {
    id: 'redis',
    label: 'service, Redis quota',
    passes: [run(20_000), run(16_000), run(20_800)],
    floor: 'replay',
    goal: { vsFloor: 0.45, vsPeer: 2.5 },
  },
  { id: 'broken', label: 'never ran', passes: [undefined, undefined, undefined] },
]

describe('summarise', () => {
  const rows = summarise(measured, 'reference', 'peer')

  it('drops targets with no completed pass', () => {
    expect(rows.map((r) => r.id)).toEqual(['reference', 'replay', 'peer', 'off', 'redis'])
  })

  it('gives median and range of req/s over completed passes, and the median p99', () => {
    const off = rows.find((r) => r.id === 'off')!
    expect(off.rps).toEqual({ median: 37_500, min: 33_000, max: 42_000 })
    expect(off.p99Ms).toBe(4)
  })

  it('takes ratios within each pass, to the row’s own floor, the reference and the peer', () => {
    const off = rows.find((r) => r.id === 'off')!
    expect(off.vsFloor).toBeCloseTo((42_000 / 50_000 + 33_000 / 40_000) / 2)
    expect(off.vsReference).toBeCloseTo((42_000 / 60_000 + 33_000 / 48_000) / 2)
    expect(off.vsPeer).toBeCloseTo((4.2 + 4.125) / 2)
    expect(rows.find((r) => r.id === 'reference')!.vsReference).toBe(1)
    expect(rows.find((r) => r.id === 'replay')!.vsFloor).toBe(1)
    // A row without a floor (another mix, or a ceiling) has no ×floor rather than a made-up one.
    expect(rows.find((r) => r.id === 'peer')!.vsFloor).toBeUndefined()
  })

  it("gives the server's CPU per request, and the floor's over the target's within each pass", () => {
    const off = rows.find((r) => r.id === 'off')!
    expect(off.cpuUsPerRequest).toBeCloseTo(24.5)
    expect(off.vsFloorByCpu).toBeCloseTo((20 / 25 + 20 / 24) / 2)
    expect(rows.find((r) => r.id === 'replay')!.vsFloorByCpu).toBe(1)
    // No CPU recorded, or no request answered: no figure rather than a made-up one.
    const silent = summarise(
      [{ id: 'x', label: 'x', passes: [{ ...run(0), requests: 0 }], serverCpuSeconds: [3] }],
      'reference',
      'peer',
    )
    expect(silent[0]!.cpuUsPerRequest).toBeUndefined()
    expect(rows.find((r) => r.id === 'redis')!.cpuUsPerRequest).toBeUndefined()
    expect(rows.find((r) => r.id === 'redis')!.vsFloorByCpu).toBeUndefined()
  })

  it('judges each goal on req/s, showing the CPU ratio beside ×floor', () => {
    const off = rows.find((r) => r.id === 'off')!
    expect(off.verdicts).toEqual([
      { text: '×floor 0.83 (goal ≥ 0.80): met (by CPU per request: 0.82)', met: true },
      { text: '×peer 4.16 (goal ≥ 2.50): met', met: true },
    ])
    const redis = rows.find((r) => r.id === 'redis')!
    expect(redis.verdicts.map((v) => v.met)).toEqual([false, false])
    expect(unmet(rows).map((r) => r.id)).toEqual(['redis'])
  })

  it('renders a markdown table and the verdicts', () => {
    const table = markdownTable(rows)
    expect(table.split('\n')).toHaveLength(2 + rows.length)
    expect(table).toContain('| service, quota off | 37,500 | 33,000–42,000 | 0.83 | 0.69 | 4.16 |')
    expect(table).toMatch(/\| service, quota off \|.* \| 24\.5 \| 0\.82 \|$/m)
    expect(table).toMatch(/\| service, Redis quota \|.* \| – \| – \|$/m)
    expect(markdownVerdicts(rows)).toContain('- **service, Redis quota**: ×floor 0.40 (goal ≥ 0.45): NOT met')
  })
})
