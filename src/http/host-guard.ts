/**
 * The DNS-rebinding guard (docs/contract.md "Addresses", docs/operations.md "Host names"). A service
 * that listens only on a loopback address is meant for this machine: but a page on any web site can
 * make a browser on this machine reach it, by giving its own domain a DNS answer of 127.0.0.1 (DNS
 * rebinding: the browser then treats the local service as part of that site and lets the page read
 * its answers, the MCP endpoint included), or by calling http://localhost:… straight from the page.
 * The browser always names the host it thinks it talks to in `Host`, and the page's origin in
 * `Origin`: so such a service answers only requests whose `Host` is a loopback name (localhost,
 * 127.0.0.0/8, [::1], any port), the public base URL's host or a host of ALLOWED_HOSTS, and whose
 * `Origin`, when there is one and the request is addressed to this machine by a loopback name, is
 * one of those too. A request addressed to the public host (through a proxy) may come from any page:
 * the API is public there, CORS `*`. A request without `Host` (HTTP/1.0) names no other host and
 * passes. A service listening on any other address (0.0.0.0, a LAN address) has no guard: it is
 * meant to be reached by other names.
 */
import type { IncomingMessage } from 'node:http'
import ipaddr from 'ipaddr.js'
import { HttpRefusal } from './status.js'

/** The status of the guard's refusal: the request is understood, and refused for who it claims to address. */
const HOST_REFUSAL_STATUS = 403

/** Whether `address` (the HOST setting) is a loopback address or the name localhost. */
export function isLoopbackListenAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1')
  return isLoopbackName(bare)
}

/** A host name as compared: lower case, without a trailing dot, an IPv6 literal without brackets. */
function hostName(name: string): string {
  return name
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[(.*)\]$/, '$1')
}

function isLoopbackName(name: string): boolean {
  const host = hostName(name)
  if (host === 'localhost') return true
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return ipaddr.IPv4.parse(host).range() === 'loopback'
  if (!ipaddr.IPv6.isValid(host)) return false
  const v6 = ipaddr.IPv6.parse(host)
  return v6.range() === 'loopback' || (v6.isIPv4MappedAddress() && v6.toIPv4Address().range() === 'loopback')
}

/** The host name of a `Host` field value (`name`, `name:port`, `[v6]:port`); undefined when it is none. */
function hostOfField(value: string): string | undefined {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]\s]+)(?::\d*)?$/.exec(value)
  return match === null ? undefined : hostName(match[1]!)
}

/** The host name of an `Origin` field value (`scheme://host[:port]`); undefined for `null` or garbage. */
function hostOfOrigin(value: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]+$/.test(value)) return undefined
  try {
    return hostName(new URL(value).hostname)
  } catch {
    return undefined
  }
}

export type HostGuardSettings = {
  /** The address the service listens on (HOST). */
  listenAddress: string
  /** PUBLIC_BASE_URL: its host is accepted. */
  publicBaseUrl?: string
  /** ALLOWED_HOSTS: further host names accepted; `*` turns the guard off. */
  allowedHosts?: readonly string[]
}

/**
 * The guard's refusal. Answered in the contract's JSON error body on every path, pages included: no
 * person is meant to read it, only the script of the page that tried.
 */
export class MisaddressedRequest extends HttpRefusal {
  constructor(message: string) {
    super(HOST_REFUSAL_STATUS, message)
  }
}

/** The guard's refusal of `req`, or undefined when it passes. */
export type HostGuard = (req: IncomingMessage) => MisaddressedRequest | undefined

/** The guard of a service with these settings; undefined when it has none (not loopback-only, or ALLOWED_HOSTS=*). */
export function hostGuard(settings: HostGuardSettings): HostGuard | undefined {
  if (!isLoopbackListenAddress(settings.listenAddress)) return undefined
  const listed = settings.allowedHosts ?? []
  if (listed.includes('*')) return undefined
  const publicHost = settings.publicBaseUrl === undefined ? [] : [new URL(settings.publicBaseUrl).hostname]
  const named = new Set([...publicHost, ...listed].map(hostName))
  const accepted = (host: string) => named.has(host) || isLoopbackName(host)
  const allowedText = ['localhost', '127.0.0.1', '[::1]', ...named].join(', ')
  const refusal = (field: string, value: string) =>
    new MisaddressedRequest(
      `Header "${field}": ${JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value)} names no host this service answers for: it listens on a loopback address and accepts ${allowedText} (the operator may list more in ALLOWED_HOSTS)`,
    )
  return (req) => {
    const host = req.headers.host
    let local = true
    // No Host at all (HTTP/1.0; HTTP/1.1 without one is refused before): it names no other host.
    if (host !== undefined) {
      const name = hostOfField(host)
      if (name === undefined || !accepted(name)) return refusal('Host', host)
      local = isLoopbackName(name)
    }
    const origin = req.headers.origin
    // Addressed to the public host, the API is public: any page may call it (CORS *).
    if (origin === undefined || !local) return undefined
    const name = hostOfOrigin(origin)
    return name !== undefined && accepted(name) ? undefined : refusal('Origin', origin)
  }
}
