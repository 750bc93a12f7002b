/**
 * Which client addresses may read an operational endpoint that is not for the public (`/metrics`):
 * the entries of METRICS_ALLOW, i.e. the keywords `loopback`, `private` and `*`, addresses and CIDR
 * ranges. An IPv4-mapped IPv6 address is read as its IPv4 address, as for the quota.
 */
import ipaddr from 'ipaddr.js'

/** Ranges ipaddr.js names that are not reachable from the public Internet. */
const PRIVATE_RANGES = new Set(['private', 'uniqueLocal', 'linkLocal'])

export function allowedClients(entries: readonly string[]): (address: string | undefined) => boolean {
  if (entries.includes('*')) return () => true
  const loopback = entries.includes('loopback')
  const privateRanges = entries.includes('private')
  const cidrs = entries.filter((e) => e.includes('/')).map((e) => ipaddr.parseCIDR(e))
  const addresses = entries
    .filter((e) => !e.includes('/') && e !== 'loopback' && e !== 'private')
    .map((e) => normalised(ipaddr.parse(e)))
  return (address) => {
    if (address === undefined) return false
    let parsed: ipaddr.IPv4 | ipaddr.IPv6
    try {
      parsed = normalised(ipaddr.parse(address.split('%', 1)[0]!))
    } catch {
      return false
    }
    const range = parsed.range()
    if (loopback && range === 'loopback') return true
    if (privateRanges && PRIVATE_RANGES.has(range)) return true
    if (
      addresses.some(
        (a) => a.kind() === parsed.kind() && a.toNormalizedString() === parsed.toNormalizedString(),
      )
    )
      return true
    return cidrs.some(([net, bits]) => net.kind() === parsed.kind() && parsed.match(net, bits))
  }
}

function normalised(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address
}
