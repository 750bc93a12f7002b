import { describe, expect, it } from 'vitest'
import { ApiError } from '../core/errors.js'
import { renderError } from './render-error.js'
import { MethodRefusal, MisaddressedRequest } from './status.js'

const page = (err: ApiError, status: number, target: string) => `<p>${status} ${err.message} ${target}</p>`

describe('renderError', () => {
  it('answers the contract’s JSON body by default, never to be stored', () => {
    const answer = renderError(new ApiError('not_found', 'No such path: /x'))
    expect(answer.status).toBe(404)
    expect(answer.fields).toEqual({
      'cache-control': 'no-store',
      'content-type': 'application/json; charset=utf-8',
    })
    expect(JSON.parse(answer.body.toString())).toEqual({
      error: { code: 'not_found', message: 'No such path: /x' },
    })
  })

  it('names the wait of a refusal and the methods of a 405, before the body’s fields', () => {
    const limited = renderError(new ApiError('rate_limited', 'Too many', { retryAfterSeconds: 7 }))
    expect(Object.entries(limited.fields)[0]).toEqual(['retry-after', '7'])
    const refused = renderError(new MethodRefusal('DELETE', '/api/v1/facts', 'GET, HEAD, OPTIONS'))
    expect([refused.status, refused.fields.allow]).toEqual([405, 'GET, HEAD, OPTIONS'])
  })

  it('renders a route’s page for people, and a mount’s own body as given', () => {
    const html = renderError(new ApiError('not_found', 'Aucune'), { page, target: '/fiches/x' })
    expect(html.fields['content-type']).toBe('text/html; charset=utf-8')
    expect(html.body.toString()).toBe('<p>404 Aucune /fiches/x</p>')
    const mount = renderError(new ApiError('unavailable', 'Later'), { rendered: { jsonrpc: '2.0', id: 1 } })
    expect([mount.status, mount.body.toString()]).toEqual([503, '{"jsonrpc":"2.0","id":1}'])
  })

  it('never answers the DNS-rebinding guard’s refusal with a page: it is for the script that tried', () => {
    const answer = renderError(new MisaddressedRequest('Header "Host": no'), { page, target: '/' })
    expect([answer.status, answer.fields['content-type']]).toEqual([403, 'application/json; charset=utf-8'])
  })
})
