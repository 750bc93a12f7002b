/**
 * The front door: the server's request listener, in front of the framework, and what it reads off
 * each request before anything decides on it: the normalised target (one spelling per address), the
 * client's address and quota key, the request id, and the DNS-rebinding guard the admission applies.
 * Every request is taken in by its connection (connections.ts: one response per request, bounded
 * unsent bytes), its target normalised once, and refused here when no route could serve it well: a
 * target that holds a fragment (counted in the quota, whatever its path), a target that is not a
 * path, an HTTP/1.1 request without Host, any request while the server drains. Every other request
 * is admitted, once, by `admit` (admission.ts), then answered by its mount (mount-entry.ts), the
 * fast path (api-answers.ts) or the framework, which all apply that admission and decide nothing of
 * it again.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import proxyAddr from '@fastify/proxy-addr'
import ipaddr from 'ipaddr.js'
import { randomUUID } from 'node:crypto'
import { API_PREFIX } from '../core/api/schemas.js'
import { ApiError } from '../core/errors.js'
import { clientKey } from '../core/quota/client-key.js'
import { keepAdmission, type Admission, type Admit, type Target } from './admission.js'
import type { Connections } from './connections.js'
import type { CorsTable } from './cors.js'
import type { ErrorBodyRenderer } from './render-error.js'
import type { FastPath } from './api-answers.js'
import type { MountEntry } from './mount-entry.js'
import { markStarted, writeRefusal, type Completions } from './respond.js'
import { HttpRefusal, MisaddressedRequest } from './status.js'

/*
 * The target
 *
 * One spelling per address (docs/contract.md "Addresses"): every request target is normalised once,
 * before anything decides on it, so routing, the quota, CORS and the redirect all see the same
 * string. Without this the router decoded `/%61pi/v1/facts` to the API while the quota, reading the
 * raw target, did not count it, and an absolute-form target put its authority into a `Location`.
 *
 * - absolute-form (`http://host/path?query`, RFC 9112 §3.2.2): the authority is dropped, only the
 *   path and query remain (the Host header, not the target, names the host, and we never use it);
 * - percent-encoded unreserved characters in the path (RFC 3986 §2.3: ALPHA DIGIT - . _ ~) are
 *   decoded, as RFC 3986 §6.2.2.2 says they must be for comparison; other encodings are kept as sent;
 * - dot segments in the path are removed (RFC 3986 §5.2.4), so `/x/../api/v1` is `/api/v1`.
 * The query is never touched: it is kept byte-exact (the live-read redirect must echo it).
 *
 * A target never holds a fragment (RFC 9112 §3.2: origin-form is path and query; browsers never
 * send one), so a raw `#` makes it no target at all. It has to: the router cuts the path at the `#`
 * (find-my-way reads `/llms.txt#x` as `/llms.txt`) where a reader of the whole string does not, and
 * that difference let `/api/v1#?po_live=1` be served without being counted. The front door refuses
 * such a target before anything reads it, and counts the refusal (front-door.ts). `;` is no
 * delimiter here, nor for the router (Fastify leaves `useSemicolonDelimiter` off): `/llms.txt;x` is
 * one path for both, and an unknown one.
 */

const UNRESERVED = /^[A-Za-z0-9\-._~]$/
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/

/** Whether a raw request target holds a fragment, which no target may (see above). */
const holdsFragment = (raw: string): boolean => raw.includes('#')

/** The refusal of a target that holds a fragment. */
export const fragmentRefusal = (): ApiError =>
  new ApiError(
    'invalid_parameter',
    'The request target must not hold a fragment ("#"): send the path and query only, and percent-encode a "#" that is data as %23',
  )

/**
 * Normalises a raw request target; undefined when it is not an origin-form or absolute-form target
 * (asterisk-form `*`, an authority-form, garbage) or holds a fragment: those address nothing the
 * service serves.
 */
export function normaliseTarget(raw: string): Target | undefined {
  if (holdsFragment(raw)) return undefined
  let target = raw
  // Origin-form, nearly every target, starts with "/": no scheme to look for.
  const absolute = raw.startsWith('/') ? null : ABSOLUTE_FORM.exec(target)
  if (absolute !== null) {
    target = target.slice(absolute[0].length)
    if (target === '' || target.startsWith('?')) target = `/${target}`
  }
  if (!target.startsWith('/')) return undefined
  const q = target.indexOf('?')
  const rawPath = q === -1 ? target : target.slice(0, q)
  const query = q === -1 ? undefined : target.slice(q + 1)
  // The common case costs one scan: no "%" and no dot segment means nothing to change.
  const path = needsWork(rawPath) ? removeDotSegments(decodeUnreserved(rawPath)) : rawPath
  if (path === rawPath && absolute === null) return { path, query, url: raw }
  return { path, query, url: query === undefined ? path : `${path}?${query}` }
}

function needsWork(path: string): boolean {
  return path.includes('%') || path.includes('/.')
}

/** `%61` → `a`; `%2F`, `%20`, `%C3%A9` and malformed escapes are left as they are. */
function decodeUnreserved(path: string): string {
  if (!path.includes('%')) return path
  return path.replace(/%([0-9A-Fa-f]{2})/g, (escape: string, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16))
    return UNRESERVED.test(char) ? char : escape
  })
}

/** RFC 3986 §5.2.4, on an absolute path. */
function removeDotSegments(path: string): string {
  if (!path.includes('/.')) return path
  const output: string[] = []
  const segments = path.split('/').slice(1)
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1
    if (segment === '.') {
      if (last) output.push('')
    } else if (segment === '..') {
      output.pop()
      if (last) output.push('')
    } else output.push(segment)
  })
  return `/${output.join('/')}`
}

/*
 * The client
 *
 * The client's address, as the quota and the logs see it: the socket's, or behind trusted proxies
 * the right-most X-Forwarded-For address they did not add. One compiled trust function serves the
 * framework (its `trustProxy` option, so `req.ip` agrees) and the fast path in front of it.
 */

type TrustFunction = (address: string, hop: number) => boolean

export type ClientAddresses = {
  /** For the framework's `trustProxy` option: false (the socket is the client) or the compiled trust. */
  readonly trust: TrustFunction | false
  address(req: IncomingMessage): string | undefined
  /** The quota key of the request's client; computed once per connection when no proxy is trusted. */
  key(req: IncomingMessage): string
}

export function clientAddresses(trustedProxies: readonly string[] | undefined): ClientAddresses {
  if (trustedProxies === undefined) {
    // The socket is the client: every request of a connection has the same key.
    const keys = new WeakMap<Socket, string>()
    return {
      trust: false,
      address: (req) => req.socket.remoteAddress,
      key(req) {
        let key = keys.get(req.socket)
        if (key === undefined) keys.set(req.socket, (key = clientKey(req.socket.remoteAddress)))
        return key
      },
    }
  }
  const trust = proxyAddr.compile([...trustedProxies])
  const address = (req: IncomingMessage) => {
    const all = proxyAddr.all(req, trust)
    return all[all.length - 1]
  }
  return { trust, address, key: (req) => clientKey(address(req)) }
}

const ACCEPTED_REQUEST_ID = /^[\w.:@/+=-]{1,128}$/

/** Keeps a caller's X-Request-Id when it is a sane token (to follow a request across services), else makes one. */
export function requestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers['x-request-id']
  return typeof given === 'string' && ACCEPTED_REQUEST_ID.test(given) ? given : randomUUID()
}

/*
 * The DNS-rebinding guard
 *
 * The DNS-rebinding guard (docs/contract.md "Addresses", docs/operations.md "Host names"). A service
 * that listens only on a loopback address is meant for this machine: but a page on any web site can
 * make a browser on this machine reach it, by giving its own domain a DNS answer of 127.0.0.1 (DNS
 * rebinding: the browser then treats the local service as part of that site and lets the page read
 * its answers, the MCP endpoint included), or by calling http://localhost:… straight from the page.
 * The browser always names the host it thinks it talks to in `Host`, and the page's origin in
 * `Origin`: so such a service answers only requests whose `Host` is a loopback name (localhost,
 * 127.0.0.0/8, [::1], any port), the public base URL's host or a host of ALLOWED_HOSTS. A rebinding
 * page names its own host in `Host`, so that check alone stops it everywhere. On the MCP endpoint
 * the `Origin` is checked too, when there is one and the request is addressed to this machine by a
 * loopback name (the MCP transport requires servers to validate it: a session runs tools). The API,
 * the pages and the feeds are public and read-only, with CORS `*`: any page may read them, from a
 * service on this machine as from the public one, so their `Origin` is not a reason to refuse.
 * A request addressed to the public host (through a proxy) may come from any page. A request without `Host` (HTTP/1.0) names no other host and
 * passes. A service listening on any other address (0.0.0.0, a LAN address) has no guard: it is
 * meant to be reached by other names.
 */

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
 * The guard's refusal of `req`, or undefined when it passes. `checksOrigin`: the request is for the
 * MCP endpoint, whose `Origin` must name an accepted host too.
 */
export type HostGuard = (req: IncomingMessage, checksOrigin: boolean) => MisaddressedRequest | undefined

/** The guard of a service with these settings; undefined when it has none (not loopback-only, or ALLOWED_HOSTS=*). */
/** What the guard concludes from a Host value: refused, or accepted as a loopback name or as a named host. */
type HostVerdict = 'refused' | 'local' | 'named'
/** Host values whose verdict is kept. */
const HOST_VERDICTS_KEPT = 64

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
  // A Host value's verdict depends on that text alone, and reading it (ipaddr.js's parse and range,
  // twice) was about 31 000 instructions of each request, a fifth of all the quota-off row ran
  // (bench/instructions-pair.ts, docs/benchmarks.md). Clients send a handful of values: kept, at most
  // HOST_VERDICTS_KEPT of them, forgotten all at once when full so that a client inventing values
  // costs only what it cost before.
  const verdicts = new Map<string, HostVerdict>()
  const verdictOf = (host: string): HostVerdict => {
    let verdict = verdicts.get(host)
    if (verdict === undefined) {
      const name = hostOfField(host)
      verdict = name === undefined || !accepted(name) ? 'refused' : isLoopbackName(name) ? 'local' : 'named'
      if (verdicts.size >= HOST_VERDICTS_KEPT) verdicts.clear()
      verdicts.set(host, verdict)
    }
    return verdict
  }
  return (req, checksOrigin) => {
    const host = req.headers.host
    let local = true
    // No Host at all (HTTP/1.0; HTTP/1.1 without one is refused before): it names no other host.
    if (host !== undefined) {
      const verdict = verdictOf(host)
      if (verdict === 'refused') return refusal('Host', host)
      local = verdict === 'local'
    }
    const origin = req.headers.origin
    // Addressed to the public host, or to the public read-only API: any page may call it (CORS *).
    if (origin === undefined || !local || !checksOrigin) return undefined
    const name = hostOfOrigin(origin)
    return name !== undefined && accepted(name) ? undefined : refusal('Origin', origin)
  }
}

/*
 * The listener
 */

/** Seconds a client is asked to wait when this replica is shutting down: another one will answer. */
const DRAIN_RETRY_AFTER_SECONDS = 1

export type FrontDoorOptions = {
  connections: Connections
  cors: CorsTable
  /** The error body format of a path (a mount's own), or undefined for the contract's. */
  errorBodyFor(path: string): ErrorBodyRenderer | undefined
  /** Tags the request with its id before it is answered here (the framework reads the same header). */
  requestId(req: IncomingMessage): string
  /** The handlers mounted next to the API (MCP): every request to their paths is answered there. */
  mounts: MountEntry
  /** Prepared answers sent without the framework; undefined when everything else goes to the framework. */
  fastPath?: FastPath
  /** How requests are admitted (admission.ts). */
  admit: Admit
  /** Where the answers given here are reported (log and metrics). */
  completions: Completions
}

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void

export function frontDoor(options: FrontDoorOptions, next: RequestListener): RequestListener {
  const refuse = (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    error: ApiError,
    extra?: Record<string, string>,
  ) => {
    const id = options.requestId(req)
    // Routed by the target as read (normalised once it is a path; a target that is not one routes nowhere).
    options.completions.whenFinished(
      req,
      res,
      options.completions.routeOfPath((req.url ?? '').split('?', 1)[0]!),
      id,
    )
    writeRefusal(res, {
      error,
      cors: options.cors.policyFor(path),
      admitted: { id },
      render: options.errorBodyFor(path),
      req,
      extra,
      head: req.method === 'HEAD',
    })
  }
  /** A target no route may read (a fragment): refused in the API's terms, and counted. */
  const refuseUnreadable = (req: IncomingMessage, res: ServerResponse, err: ApiError) => {
    const write = (admission: Admission) => {
      // No route reads a target holding a fragment: reported under no route's name.
      options.completions.whenFinished(req, res, options.completions.routeOfPath(''), admission.id)
      const error = admission.outcome?.kind === 'refusal' ? admission.outcome.error : err
      writeRefusal(res, { error, cors: admission.cors, admitted: admission, head: req.method === 'HEAD' })
    }
    const admitted = options.admit.unreadable(req, err)
    if (!(admitted instanceof Promise)) return write(admitted)
    admitted.then(write, () =>
      refuse(req, res, API_PREFIX, new ApiError('internal_error', 'Internal server error')),
    )
  }
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    // Before anything reads the target: the router would cut it at the "#", a reader of the whole would not.
    if (holdsFragment(req.url ?? '')) return refuseUnreadable(req, res, fragmentRefusal())
    const target = normaliseTarget(req.url ?? '')
    if (target === undefined)
      return refuse(
        req,
        res,
        API_PREFIX,
        new HttpRefusal(400, 'The request target must be a path, such as /api/v1/'),
      )
    // The raw target stays readable for logs; every decision below reads the normalised one.
    ;(req as IncomingMessage & { originalUrl?: string }).originalUrl = req.url
    req.url = target.url
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
      return refuse(req, res, target.path, new HttpRefusal(400, 'Missing Host header (required by HTTP/1.1)'))
    }
    if (options.connections.draining) {
      const err = new ApiError('unavailable', 'The server is shutting down; retry shortly', {
        retryAfterSeconds: DRAIN_RETRY_AFTER_SECONDS,
      })
      return refuse(req, res, target.path, err, { connection: 'close' })
    }
    const go = (admission: Admission) => {
      keepAdmission(req, admission)
      // The admission read the route (route-table.ts): a mount answers its exact address only.
      const mount = admission.route?.mount
      if (mount !== undefined) return options.mounts.serve(req, res, admission, mount)
      try {
        if (options.fastPath?.serve(req, res, target, admission) === true) return
      } catch (err) {
        // A fault (a bug) preparing the answer, found by src/service/internal-error.test.ts: nothing is
        // written yet, so the framework answers, and its error handler logs the cause and sends a 500.
        if (res.headersSent) return void res.destroy(err as Error)
      }
      next(req, res)
    }
    const admitted = options.admit(req, target)
    if (!(admitted instanceof Promise)) return go(admitted)
    // The quota's stores never reject (a failing Redis falls back to memory); if one did, a 500.
    admitted.then(go, () =>
      refuse(req, res, target.path, new ApiError('internal_error', 'Internal server error')),
    )
  }
  return (req, res) => {
    markStarted(req)
    options.connections.schedule(req, res, handle)
  }
}
