import { describe, expect, it } from 'vitest'
import {
  InvalidParameterError,
  MethodNotAllowedError,
  NotFoundError,
  RateLimitError,
  RecordsApiError,
  RecordsClientError,
  RecordsConnectionError,
  UnavailableError,
  UnexpectedResponseError,
  createApiError,
} from './errors.js'

const body = (code: string, message: string) => ({ error: { code, message } })

describe('createApiError', () => {
  it('picks the class from the status and keeps the server code and message', () => {
    const cases = [
      [400, 'invalid_parameter', InvalidParameterError],
      [404, 'not_found', NotFoundError],
      [405, 'method_not_allowed', MethodNotAllowedError],
      [429, 'rate_limited', RateLimitError],
      [503, 'unavailable', UnavailableError],
      [500, 'internal_error', UnexpectedResponseError],
    ] as const
    for (const [status, code, ErrorClass] of cases) {
      const error = createApiError(status, body(code, `m${status}`), undefined, 'http://h/x')
      expect(error).toBeInstanceOf(ErrorClass)
      expect(error).toBeInstanceOf(RecordsApiError)
      expect(error).toBeInstanceOf(RecordsClientError)
      expect(error).toMatchObject({
        status,
        code,
        message: `m${status}`,
        name: ErrorClass.name,
        url: 'http://h/x',
      })
    }
  })

  it('carries the requested wait', () => {
    expect(createApiError(429, body('rate_limited', 'x'), 61_000, 'http://h/').retryAfterMs).toBe(61_000)
  })

  it('survives a body that is not the contract error body', () => {
    const error = createApiError(502, '<html>Bad gateway</html>', undefined, 'http://h/api/v1/facts')
    expect(error).toBeInstanceOf(UnexpectedResponseError)
    expect(error).toMatchObject({
      status: 502,
      code: 'unknown',
      message: 'HTTP 502 from http://h/api/v1/facts',
    })
  })
})

describe('RecordsConnectionError', () => {
  it('names the address and the underlying cause', () => {
    const cause = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') })
    const error = new RecordsConnectionError('http://127.0.0.1:1/api/v1/', cause)
    expect(error.message).toBe(
      'Could not reach http://127.0.0.1:1/api/v1/: fetch failed: connect ECONNREFUSED 127.0.0.1:1',
    )
    expect(error).toMatchObject({ status: 0, name: 'RecordsConnectionError', cause })
  })
})
