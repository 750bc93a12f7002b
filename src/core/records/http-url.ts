/**
 * The rule for a record's URL fields (docs/contract.md "Records are refused, never altered"): an
 * absolute `http` or `https` URL on a domain name, written exactly as the WHATWG URL parser writes
 * it (`new URL(text).href === text`), with no quote, backtick or backslash. A URL the parser would rewrite is
 * refused rather than rewritten, and the rewrite names the spelling to publish instead: then every
 * reuser (a browser, a feed reader, a program pasting strings into HTML) reads the same address, and
 * what the parser percent-encodes (quotes, angle brackets, spaces, controls, non-ASCII) never
 * reaches them raw. The parser leaves `'` raw in a path, a backtick and a backslash in a query or a
 * fragment, where an HTML attribute or a script string would end: those are refused too (`%27`,
 * `%60`, `%5C` are the same address to a server).
 */
import { z } from 'zod'

/** A host that is a domain name: no IP address, no `localhost`, a top-level label of letters. */
const DOMAIN = z.regexes.domain
/** What the parser may leave raw that would end a quoted string in HTML or a script, with its percent-encoding. */
const LEFT_RAW: Readonly<Record<string, string>> = {
  "'": 'a quote (write it %27)',
  '`': 'a backtick (write it %60)',
  '\\': 'a backslash (write it %5C)',
}
const LEFT_RAW_PATTERN = /['`\\]/

/** Why `text` is not a URL a record may hold; undefined when it is. */
export function httpUrlProblem(text: string): string | undefined {
  const url = URL.parse(text)
  if (url === null) return 'must be an absolute http(s) URL (the URL parser cannot read it)'
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `must be an http or https URL, not ${JSON.stringify(url.protocol.slice(0, -1))}`
  if (url.href !== text)
    return `must be written as the WHATWG URL parser writes it: ${JSON.stringify(url.href)}`
  const raw = LEFT_RAW_PATTERN.exec(text)
  if (raw !== null) return `must not hold ${LEFT_RAW[raw[0]]}`
  DOMAIN.lastIndex = 0
  if (!DOMAIN.test(url.hostname)) return `must name a domain, not ${JSON.stringify(url.hostname)}`
  return undefined
}

/** Whether `text` is a URL a record may hold: the test of the record schema's URL fields. */
export const isRecordUrl = (text: string): boolean => httpUrlProblem(text) === undefined
