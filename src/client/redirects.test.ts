/** Redirects, request headers and error mapping of RecordsClient, over real HTTP against scripted servers. */
import { describe, expect, it } from 'vitest'
import {
  apiError,
  json,
  redirect,
  scriptedClient,
  useScriptedServers,
} from '../../test/support/scripted-server.js'
import { RedirectError } from './errors.js'

const scripted = useScriptedServers()

describe('redirects', () => {
  it('follows a same-origin 307 (relative Location)', async () => {
    const server = await scripted(
      redirect('/api/v1/facts?q=x&po_live=1'),
      json({ results: [], total: 0, limit: 10, offset: 0 }),
    )
    const { client } = scriptedClient(server)
    await expect(client.search({ q: 'x' })).resolves.toMatchObject({ total: 0 })
    expect(server.log).toEqual(['GET /api/v1/facts?po_live=1&q=x', 'GET /api/v1/facts?q=x&po_live=1'])
  })

  it('follows a same-origin 307 with an absolute Location', async () => {
    const server = await scripted()
    server.push(redirect(`${server.url}/api/v1/?po_live=1&again`), json({ name: 'ok' }))
    const { client } = scriptedClient(server)
    await expect(client.catalogue()).resolves.toEqual({ name: 'ok' })
    expect(server.log).toEqual(['GET /api/v1/?po_live=1', 'GET /api/v1/?po_live=1&again'])
  })

  it('refuses a cross-origin Location without requesting it', async () => {
    const other = await scripted(json({ name: 'elsewhere' }))
    const server = await scripted(redirect(`${other.url}/api/v1/?po_live=1`))
    const { client } = scriptedClient(server)
    const reading = client.catalogue()
    await expect(reading).rejects.toBeInstanceOf(RedirectError)
    await expect(reading).rejects.toMatchObject({
      reason: 'cross_origin',
      location: `${other.url}/api/v1/?po_live=1`,
    })
    expect(server.log).toEqual(['GET /api/v1/?po_live=1'])
    expect(other.log).toEqual([])
  })

  it('treats another port or scheme of the same host as another origin', async () => {
    const server = await scripted()
    const port = Number(new URL(server.url).port)
    server.push(
      redirect(`http://127.0.0.1:${port + 1}/api/v1/`),
      redirect(`https://127.0.0.1:${port}/api/v1/`),
    )
    const { client } = scriptedClient(server)
    await expect(client.catalogue()).rejects.toMatchObject({ reason: 'cross_origin' })
    await expect(client.catalogue()).rejects.toMatchObject({ reason: 'cross_origin' })
    expect(server.log).toHaveLength(2)
  })

  it('follows at most 3 hops', async () => {
    const hop = (n: number) => redirect(`/api/v1/?po_live=1&hop=${n}`)
    const server = await scripted(hop(1), hop(2), hop(3), hop(4), json({}))
    const { client } = scriptedClient(server)
    await expect(client.catalogue()).rejects.toMatchObject({
      name: 'RedirectError',
      reason: 'too_many_redirects',
    })
    expect(server.log).toEqual([
      'GET /api/v1/?po_live=1',
      'GET /api/v1/?po_live=1&hop=1',
      'GET /api/v1/?po_live=1&hop=2',
      'GET /api/v1/?po_live=1&hop=3',
    ])
  })

  it('refuses an unreadable Location', async () => {
    const server = await scripted(redirect('http://['))
    const { client } = scriptedClient(server)
    await expect(client.catalogue()).rejects.toMatchObject({
      name: 'RedirectError',
      reason: 'invalid_location',
    })
  })

  it('retries a 429 met after a redirect at the redirected address', async () => {
    const server = await scripted(
      redirect('/api/v1/?po_live=1&moved'),
      apiError(429, 'rate_limited', 'Too many requests', { 'retry-after': '1' }),
      json({ name: 'ok' }),
    )
    const { client, waits } = scriptedClient(server)
    await expect(client.catalogue()).resolves.toEqual({ name: 'ok' })
    expect(waits).toEqual([1000])
    expect(server.log).toEqual([
      'GET /api/v1/?po_live=1',
      'GET /api/v1/?po_live=1&moved',
      'GET /api/v1/?po_live=1&moved',
    ])
  })

  it('in browser mode, lets fetch follow and accepts a same-origin result', async () => {
    const server = await scripted(redirect('/api/v1/?po_live=1&moved'), json({ name: 'ok' }))
    const { client } = scriptedClient(server, { mode: 'browser' })
    await expect(client.catalogue()).resolves.toEqual({ name: 'ok' })
    expect(server.log).toEqual(['GET /api/v1/?po_live=1', 'GET /api/v1/?po_live=1&moved'])
  })

  it('in browser mode, refuses a result from another origin', async () => {
    // A browser follows redirects itself, so the other origin is reached; its answer is still refused.
    const other = await scripted(json({ name: 'elsewhere' }))
    const server = await scripted(redirect(`${other.url}/api/v1/?po_live=1`))
    const { client } = scriptedClient(server, { mode: 'browser' })
    await expect(client.catalogue()).rejects.toMatchObject({ name: 'RedirectError', reason: 'cross_origin' })
  })
})

describe('requests', () => {
  it('sends po_live=1 first, then the parameters in a fixed order, with a User-Agent in script mode', async () => {
    let headers: Record<string, string | string[] | undefined> = {}
    const server = await scripted((req) => {
      headers = req.headers
      return json({ results: [], total: 0, limit: 5, offset: 10 })
    })
    const { client } = scriptedClient(server, { userAgent: 'my-tool/1.0' })
    await client.search({ offset: 10, limit: 5, region: 'france', kind: 'lesson', q: 'priorité à droite' })
    expect(server.log).toEqual([
      'GET /api/v1/facts?po_live=1&q=priorit%C3%A9+%C3%A0+droite&kind=lesson&region=france&limit=5&offset=10',
    ])
    expect(headers).toMatchObject({ accept: 'application/json', 'user-agent': 'my-tool/1.0' })
    expect(headers.cookie).toBeUndefined()
  })

  it('encodes the id into the path and refuses dot segments', async () => {
    const server = await scripted(apiError(400, 'invalid_parameter', 'Path parameter "id" must be …'))
    const { client } = scriptedClient(server)
    await expect(client.get('a/b?c')).rejects.toMatchObject({ name: 'InvalidParameterError', status: 400 })
    expect(server.log).toEqual(['GET /api/v1/facts/a%2Fb%3Fc?po_live=1'])
    await expect(client.get('..')).rejects.toBeInstanceOf(TypeError)
    expect(server.log).toHaveLength(1)
  })
})

describe('errors', () => {
  it('maps 404 to NotFoundError with the server message, without retrying', async () => {
    const server = await scripted(apiError(404, 'not_found', 'No record with id "fait-0000000000000000"'))
    const { client, waits } = scriptedClient(server)
    await expect(client.get('fait-0000000000000000')).rejects.toMatchObject({
      name: 'NotFoundError',
      status: 404,
      code: 'not_found',
      message: 'No record with id "fait-0000000000000000"',
    })
    expect(waits).toEqual([])
  })

  it('does not retry a 500', async () => {
    const server = await scripted(apiError(500, 'internal_error', 'Internal server error'), json({}))
    const { client } = scriptedClient(server)
    await expect(client.openapi()).rejects.toMatchObject({
      name: 'UnexpectedResponseError',
      status: 500,
      code: 'internal_error',
    })
    expect(server.log).toEqual(['GET /api/v1/openapi.json?po_live=1'])
  })

  it('refuses a success whose body is not JSON', async () => {
    const server = await scripted({ status: 200, body: '<html>captive portal</html>' })
    const { client } = scriptedClient(server)
    await expect(client.catalogue()).rejects.toMatchObject({
      name: 'UnexpectedResponseError',
      code: 'invalid_response',
    })
  })
})
