import { describe, expect, it } from 'vitest'
import { allowedClients } from './allowed-clients.js'

describe('allowedClients', () => {
  it('loopback,private (the default): this machine and private networks, nobody on the Internet', () => {
    const allowed = allowedClients(['loopback', 'private'])
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '::1',
      '::ffff:127.0.0.1',
      '10.1.2.3',
      '172.16.0.9',
      '192.168.1.20',
      'fd12:3456::1',
      'fe80::1%eth0',
      '::ffff:10.0.0.5',
    ]) {
      expect(allowed(address), address).toBe(true)
    }
    for (const address of [
      '203.0.113.5',
      '8.8.8.8',
      '172.32.0.1',
      '2001:db8::1',
      '::ffff:203.0.113.5',
      '',
      'not an address',
    ]) {
      expect(allowed(address), address).toBe(false)
    }
    expect(allowed(undefined)).toBe(false)
  })

  it('addresses and CIDR ranges, of either family', () => {
    const allowed = allowedClients(['198.51.100.7', '2001:db8:1::/48'])
    expect(allowed('198.51.100.7')).toBe(true)
    expect(allowed('::ffff:198.51.100.7')).toBe(true)
    expect(allowed('198.51.100.8')).toBe(false)
    expect(allowed('2001:db8:1:2::9')).toBe(true)
    expect(allowed('2001:db8:2::9')).toBe(false)
    expect(allowed('127.0.0.1')).toBe(false) // only what is named
  })

  it('* lets everyone read', () => {
    expect(allowedClients(['*'])('203.0.113.5')).toBe(true)
  })
})
