/**
 * The quota's client key (docs/contract.md "Quota"): the connection's address, an IPv4-mapped IPv6
 * address as its IPv4 address, and an IPv6 address by its /64 — one subscriber usually holds a
 * whole /64, so keying by full address would hand each of them 2^64 budgets.
 */
import ipaddr from 'ipaddr.js'

// The two forms nearly every request has, recognised without parsing (ipaddr.js took 2 % of CPU under load).
const PLAIN_IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/
const MAPPED_IPV4 = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i

export function clientKey(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown'
  if (PLAIN_IPV4.test(address)) return address
  const mapped = MAPPED_IPV4.exec(address)
  if (mapped) return mapped[1]!
  let parsed: ipaddr.IPv4 | ipaddr.IPv6
  try {
    parsed = ipaddr.parse(address.split('%', 1)[0]!) // drop an IPv6 zone id
  } catch {
    return `raw:${address}`
  }
  if (parsed.kind() === 'ipv4') return parsed.toString()
  const v6 = parsed as ipaddr.IPv6
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString()
  const [a, b, c, d] = v6.parts
  return `${[a, b, c, d].map((p) => p!.toString(16)).join(':')}::/64`
}
