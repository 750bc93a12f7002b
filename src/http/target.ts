/**
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

import { ApiError } from '../core/errors.js'

/** The normalised target: `path` starts with "/"; `query` excludes the "?" (undefined without one). */
export type Target = { readonly path: string; readonly query: string | undefined; readonly url: string }

const UNRESERVED = /^[A-Za-z0-9\-._~]$/
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/

/** Whether a raw request target holds a fragment, which no target may (see above). */
export const holdsFragment = (raw: string): boolean => raw.includes('#')

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
  const absolute = ABSOLUTE_FORM.exec(target)
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
