import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { hostGuard, isLoopbackListenAddress } from './front-door.js'
import { ERROR_EXAMPLES } from './openapi-examples.js'

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage
const guard = (settings: { publicBaseUrl?: string; allowedHosts?: string[] } = {}) =>
  hostGuard({ listenAddress: '127.0.0.1', ...settings })!
/** The refusal's message for a request to the MCP endpoint (`onMcp`, where Origin is checked too) or elsewhere. */
const refused = (g: ReturnType<typeof guard>, headers: Record<string, string>, onMcp = true) =>
  g(request(headers), onMcp)?.message

describe('isLoopbackListenAddress', () => {
  it.each(['127.0.0.1', '127.8.9.10', '::1', '[::1]', 'localhost', 'LOCALHOST', '::ffff:127.0.0.1'])(
    '%s is loopback',
    (address) => expect(isLoopbackListenAddress(address)).toBe(true),
  )
  it.each(['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'records.example.org', '127.1', '128.0.0.1'])(
    '%s is not',
    (address) => expect(isLoopbackListenAddress(address)).toBe(false),
  )
})

describe('the DNS-rebinding guard', () => {
  it('is off for a service listening on another address, or when ALLOWED_HOSTS is *', () => {
    expect(hostGuard({ listenAddress: '0.0.0.0' })).toBeUndefined()
    expect(hostGuard({ listenAddress: '::' })).toBeUndefined()
    expect(hostGuard({ listenAddress: '127.0.0.1', allowedHosts: ['*'] })).toBeUndefined()
  })

  it.each([
    'localhost',
    'localhost:8080',
    'LocalHost:1',
    'localhost.',
    '127.0.0.1',
    '127.0.0.1:8080',
    '127.255.0.9:80',
    '[::1]',
    '[::1]:8080',
    '[::ffff:127.0.0.1]:8080',
  ])('accepts Host: %s', (host) => expect(refused(guard(), { host })).toBeUndefined())

  it.each([
    'evil.example.com',
    'evil.example.com:8080',
    'localhost.evil.example',
    '127.0.0.1.evil.example',
    '128.0.0.1',
    '[::2]:80',
    '',
    'not a host:x:y',
    'localhost:80:80',
    '127.1',
  ])('refuses Host: %j, naming the header', (host) => {
    const message = refused(guard(), { host })
    expect(message).toMatch(/^Header "Host": ".*" names no host this service answers for/)
    expect(message).toContain('ALLOWED_HOSTS')
  })

  it('lets a request without Host through (HTTP/1.0): it names no other host', () => {
    expect(refused(guard(), {})).toBeUndefined()
    expect(refused(guard(), { origin: 'http://evil.example' })).toMatch(/^Header "Origin"/)
  })

  it.each(['http://localhost:3000', 'http://127.0.0.1:8080', 'https://[::1]', 'http://LOCALHOST'])(
    'accepts Origin: %s on a loopback Host',
    (origin) => expect(refused(guard(), { host: 'localhost:8080', origin })).toBeUndefined(),
  )

  it.each([
    'http://evil.example.com',
    'http://evil.example.com:8080',
    'null',
    'garbage',
    'http://localhost.evil.example',
    'http://localhost:8080/path',
  ])('refuses Origin: %s on a loopback Host', (origin) =>
    expect(refused(guard(), { host: '127.0.0.1:8080', origin })).toMatch(/^Header "Origin"/),
  )

  it('lets any Origin read the public API and pages on a loopback Host: only its Host is checked there', () => {
    for (const origin of ['http://evil.example.com', 'https://reuser.example', 'null'])
      expect(refused(guard(), { host: 'localhost:8080', origin }, false)).toBeUndefined()
    // A rebinding page names its own host in Host: refused everywhere.
    expect(refused(guard(), { host: 'evil.example.com', origin: 'http://evil.example.com' }, false)).toMatch(
      /^Header "Host"/,
    )
  })

  it('accepts the public base URL host, any port, and any Origin when addressed to it', () => {
    const g = guard({ publicBaseUrl: 'https://Records.Example.org/base' })
    expect(refused(g, { host: 'records.example.org' })).toBeUndefined()
    expect(refused(g, { host: 'records.example.org:443' })).toBeUndefined()
    // Addressed to the public host, the API is public (CORS *): any page may call it.
    expect(refused(g, { host: 'records.example.org', origin: 'https://app.example' })).toBeUndefined()
    // A page of the public origin may call the service on this machine too.
    expect(refused(g, { host: 'localhost', origin: 'https://records.example.org' })).toBeUndefined()
    expect(refused(g, { host: 'localhost', origin: 'https://app.example' })).toMatch(/^Header "Origin"/)
    expect(refused(g, { host: 'records.example.org.evil.example' })).toMatch(/^Header "Host"/)
  })

  it('accepts the hosts of ALLOWED_HOSTS, named in its refusals', () => {
    const g = guard({ allowedHosts: ['app.internal', '192.0.2.10', '[2001:db8::1]'] })
    expect(refused(g, { host: 'APP.internal:8080' })).toBeUndefined()
    expect(refused(g, { host: '192.0.2.10' })).toBeUndefined()
    expect(refused(g, { host: '[2001:db8::1]:80' })).toBeUndefined()
    expect(refused(g, { host: 'localhost', origin: 'http://app.internal:3000' })).toBeUndefined()
    expect(refused(g, { host: 'other.internal' })).toContain('app.internal, 192.0.2.10, 2001:db8::1')
  })

  it('gives every Host value the same verdict whether it is kept, forgotten or new (the verdicts are kept per value)', () => {
    const g = guard({ publicBaseUrl: 'https://records.example.org' })
    const verdicts = () => ({
      local: refused(g, { host: 'localhost:3000', origin: 'https://app.example' }),
      named: refused(g, { host: 'records.example.org', origin: 'https://app.example' }),
      other: refused(g, { host: 'evil.example' }),
    })
    const first = verdicts()
    expect(first.local).toMatch(/^Header "Origin"/)
    expect(first.named).toBeUndefined()
    expect(first.other).toMatch(/^Header "Host"/)
    // Far more values than are kept, each refused: the kept ones are forgotten, and read again the same.
    for (let i = 0; i < 1_000; i++)
      expect(refused(g, { host: `rebind-${i}.example` })).toMatch(/^Header "Host"/)
    expect(verdicts()).toEqual(first)
    expect(verdicts()).toEqual(first)
  })

  it('shortens a long value in its message', () => {
    const message = refused(guard(), { host: 'a'.repeat(5_000) })!
    expect(message.length).toBeLessThan(400)
  })
})

it('words its refusal as the OpenAPI example does', () => {
  const example = ERROR_EXAMPLES['403']!.otherHost!.value as { error: { message: string } }
  expect(refused(guard(), { host: 'evil.example.com' })).toBe(example.error.message)
})
