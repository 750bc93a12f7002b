import { describe, expect, it } from 'vitest'
import { busyShare, cpuTicks, groupCpuSeconds, othersCores, parseProcStat, type ProcessCpu } from './cpu.js'

describe('parseProcStat', () => {
  it('reads pid, process group and utime + stime, even with spaces and parentheses in the name', () => {
    const line =
      '31353 (node (main) x) R 31349 31340 31340 0 -1 4194304 2215 0 0 0 700 150 0 0 20 0 11 0 190263 43 2000 0'
    expect(parseProcStat(line)).toEqual({
      pid: 31353,
      ppid: 31349,
      pgrp: 31340,
      name: 'node (main) x',
      ticks: 850,
    })
  })

  it('gives undefined for unreadable text', () => {
    expect(parseProcStat('garbage')).toBeUndefined()
  })
})

describe('othersCores', () => {
  const p = (pid: number, pgrp: number, ticks: number, ppid = 1, name = 'node'): [number, ProcessCpu] => [
    pid,
    { pid, ppid, pgrp, name, ticks },
  ]

  it('adds the CPU of other processes, new ones from zero, and leaves out ours and the workload', () => {
    const before = new Map([
      p(10, 10, 1000),
      p(20, 20, 500),
      p(30, 30, 0),
      p(40, 1, 7),
      p(60, 0, 0, 2, 'ksoftirqd/1'),
      p(70, 70, 0, 1, 'redis-server'),
    ])
    const after = new Map([
      p(10, 10, 1100),
      p(20, 20, 900),
      p(30, 30, 50),
      p(40, 1, 9),
      p(50, 50, 150),
      p(60, 0, 400, 2, 'ksoftirqd/1'),
      p(70, 70, 300, 1, 'redis-server'),
    ])
    // Others: pid 10 (+100) and pid 50 (new, 150) = 250 ticks = 2.5 s over 5 s = 0.5 cores.
    expect(othersCores(before, after, 5, new Set([20, 30]), new Set([40]))).toBeCloseTo(0.5)
  })
})

describe('groupCpuSeconds', () => {
  const p = (pid: number, pgrp: number, ticks: number): [number, ProcessCpu] => [
    pid,
    { pid, ppid: 1, pgrp, name: 'nginx', ticks },
  ]

  it("adds what a server's process group used, a process started meanwhile from zero, and nothing of other groups", () => {
    const before = new Map([p(10, 10, 1000), p(11, 10, 200), p(20, 20, 50)])
    const after = new Map([p(10, 10, 1300), p(11, 10, 260), p(12, 10, 40), p(20, 20, 950)])
    // Group 10: +300, +60, +40 (new) = 400 ticks = 4 s.
    expect(groupCpuSeconds(before, after, 10)).toBeCloseTo(4)
    expect(groupCpuSeconds(before, after, 30)).toBe(0)
  })
})

describe('cpuTicks and busyShare', () => {
  const stat = (idle: number) =>
    `cpu  1 2 3 4 5 6 7 8 0 0\ncpu0 10 0 10 80 0 0 0 0 0 0\ncpu1 50 0 20 ${idle} 5 0 5 0 0 0\n`

  it('reads one CPU, counting softirq as busy and iowait as idle', () => {
    expect(cpuTicks('1', stat(20))).toEqual({ busy: 75, total: 100 })
  })

  it('gives the busy share between two readings', () => {
    expect(busyShare(cpuTicks('1', stat(20)), { busy: 165, total: 200 })).toBeCloseTo(0.9)
  })
})
