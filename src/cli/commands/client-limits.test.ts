import { describe, expect, it } from 'vitest'
import { clientLimitsFrom } from './client-limits.js'

describe('clientLimitsFrom', () => {
  it('reads sizes with binary units and seconds as milliseconds; 0 turns a limit off', () => {
    expect(
      clientLimitsFrom({
        'max-response-bytes': '64M',
        'max-line-bytes': '512k',
        'max-download-bytes': '2GiB',
        timeout: '1.5',
        'idle-timeout': '0',
        'download-timeout': '3600',
        'requests-per-minute': '30',
      }),
    ).toEqual({
      maxResponseBytes: 64 * 1024 ** 2,
      maxLineBytes: 512 * 1024,
      maxDownloadBytes: 2 * 1024 ** 3,
      timeoutMs: 1500,
      idleTimeoutMs: 0,
      downloadTimeoutMs: 3_600_000,
      requestsPerMinute: 30,
    })
    expect(clientLimitsFrom({})).toEqual({})
    expect(clientLimitsFrom({ 'requests-per-minute': 'auto' })).toEqual({ requestsPerMinute: 'auto' })
  })

  it('refuses a value it cannot read, naming the option', () => {
    expect(() => clientLimitsFrom({ 'max-line-bytes': '1T' })).toThrow(
      /--max-line-bytes must be a size in bytes.*"1T"/,
    )
    expect(() => clientLimitsFrom({ timeout: '-1' })).toThrow(/--timeout must be a number of seconds.*"-1"/)
    expect(() => clientLimitsFrom({ 'idle-timeout': 'soon' })).toThrow(/--idle-timeout must be/)
    expect(() => clientLimitsFrom({ 'requests-per-minute': 'fast' })).toThrow(/--requests-per-minute must be/)
  })
})
