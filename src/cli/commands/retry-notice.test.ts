import { describe, expect, it } from 'vitest'
import {
  RateLimitError,
  RecordsConnectionError,
  UnavailableError,
  UnexpectedResponseError,
} from '../../client/index.js'
import { formatRetry, formatWait } from './retry-notice.js'

describe('formatRetry: every wait says why and how long', () => {
  it('a rate limit, with the service message and the wait it asked for', () => {
    const error = new RateLimitError(
      429,
      'rate_limited',
      'Too many requests: at most 120 per 60 s per client',
      58_000,
    )
    expect(formatRetry({ status: 429, error, attempt: 1, waitMs: 58_000 })).toBe(
      'rate limited (429): Too many requests: at most 120 per 60 s per client; retry 1 of 3 in 58 s',
    )
  })
  it('says the wait once when the service’s message already ends with one (as the quota’s does)', () => {
    const error = new RateLimitError(
      429,
      'rate_limited',
      'Too many requests: at most 120 per 60 s per client, shared by the API and the MCP server; retry in 60 s',
      60_000,
    )
    expect(formatRetry({ status: 429, error, attempt: 1, waitMs: 60_000 })).toBe(
      'rate limited (429): Too many requests: at most 120 per 60 s per client, shared by the API and the MCP server; retry 1 of 3 in 60 s',
    )
  })
  it('an unreachable service, with the cause', () => {
    const cause = Object.assign(new TypeError('fetch failed'), {
      cause: new Error('connect ECONNREFUSED 127.0.0.1:8080'),
    })
    const error = new RecordsConnectionError('http://127.0.0.1:8080/api/v1/?po_live=1', cause)
    expect(formatRetry({ status: 0, error, attempt: 2, waitMs: 750 })).toBe(
      'could not reach the service (fetch failed: connect ECONNREFUSED 127.0.0.1:8080); retry 2 of 3 in 0.8 s',
    )
  })
  it('an outage and a gateway error', () => {
    const unavailable = new UnavailableError(
      503,
      'unavailable',
      'The server is shutting down; retry shortly',
      1000,
    )
    expect(formatRetry({ status: 503, error: unavailable, attempt: 3, waitMs: 1000 })).toBe(
      'service unavailable (503): The server is shutting down; retry shortly; retry 3 of 3 in 1 s',
    )
    const gateway = new UnexpectedResponseError(502, 'unknown', 'HTTP 502 from http://x/api/v1/')
    expect(formatRetry({ status: 502, error: gateway, attempt: 1, waitMs: 500 })).toBe(
      'the service answered 502: HTTP 502 from http://x/api/v1/; retry 1 of 3 in 0.5 s',
    )
  })
})

describe('formatWait', () => {
  it.each([
    [0, '0 s'],
    [480, '0.5 s'],
    [9_960, '10 s'],
    [60_000, '60 s'],
    [90_000, '90 s'],
    [150_000, '2 min 30 s'],
  ])('%i ms', (ms, text) => expect(formatWait(ms)).toBe(text))
})
