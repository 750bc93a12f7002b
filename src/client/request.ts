/**
 * One logical GET: send, follow same-origin redirects, turn error statuses into typed errors, retry
 * per `planRetry`, and parse the JSON body. Redirects and retries are counted separately: a retry
 * starts again from the address that answered 429/503, not from the first one.
 */
import {
  RecordsConnectionError,
  RedirectError,
  UnexpectedResponseError,
  createApiError,
  type RecordsApiError,
} from './errors.js'
import { ExchangeClock, sizeError } from './limits.js'
import { MAX_REDIRECTS, type ResolvedOptions } from './options.js'
import { parseRetryAfter, planRetry } from './retry.js'
import { combineSignals } from './signals.js'

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308])

export type CallContext = {
  options: ResolvedOptions
  signal: AbortSignal | undefined
  maxRetries: number
  /** The Accept header; default application/json. */
  accept?: string
}

/** GETs `url` and returns its JSON body, or throws a `RecordsClientError` (or the abort reason). */
export function getJson<T>(url: URL, ctx: CallContext): Promise<T> {
  return getWith(url, ctx, async (response, target, clock) =>
    parsedOrThrow<T>(await readBody(response, target, ctx, clock), response, target),
  )
}

/**
 * GETs `url` and hands its successful response to `read`, with the same redirects, error mapping
 * and retries as `getJson`; a connection lost while `read` runs is retried too. Used as is
 * (`read` returning the response) for a body streamed by the caller.
 */
export async function getWith<T>(
  url: URL,
  ctx: CallContext,
  read: (response: Response, url: URL, clock: ExchangeClock) => Promise<T>,
): Promise<T> {
  const { options, signal } = ctx
  let target = url
  for (let retriesDone = 0; ; retriesDone++) {
    let error: RecordsApiError | RecordsConnectionError
    try {
      const answer = await fetchFollowingRedirects(target, ctx)
      target = answer.url
      const { response, clock } = answer
      if (response.ok) return await read(response, target, clock)
      const body = await readBody(response, target, ctx, clock)
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), options.now)
      error = createApiError(response.status, body.ok ? body.json : undefined, retryAfterMs, target.href)
    } catch (err) {
      if (!(err instanceof RecordsConnectionError)) throw err
      error = err
    }
    const plan = planRetry(error, retriesDone, {
      mode: options.mode,
      maxRetries: ctx.maxRetries,
      random: options.random,
    })
    if (!plan.retry) throw error
    options.onRetry?.({
      attempt: retriesDone + 1,
      status: error.status,
      waitMs: plan.waitMs,
      url: target.href,
      error,
    })
    await options.sleep(plan.waitMs, signal)
  }
}

/** A response, the address that gave it, and the clock its body is read against. */
type Answer = { response: Response; url: URL; clock: ExchangeClock }

/** Sends `url`; in script mode follows at most MAX_REDIRECTS redirects itself, refusing another origin. */
async function fetchFollowingRedirects(url: URL, ctx: CallContext): Promise<Answer> {
  const origin = ctx.options.baseUrl.origin
  let current = url
  for (let hop = 0; ; hop++) {
    const clock = new ExchangeClock(ctx.options.limits, current.href)
    const response = await send(current, ctx, clock)
    if (response.type === 'opaqueredirect') {
      throw new RedirectError(
        'opaque_redirect',
        `${current.href} answered a redirect this runtime hides; use mode: 'browser'`,
      )
    }
    if (ctx.options.mode === 'browser') return acceptFollowed(response, current, origin, clock)
    const location = response.headers.get('location')
    if (!REDIRECT_STATUSES.has(response.status) || location === null) return { response, url: current, clock }
    await discard(response)
    const next = resolveLocation(location, current)
    if (next === undefined) {
      throw new RedirectError(
        'invalid_location',
        `${current.href} redirects to an unreadable Location: ${location}`,
        location,
      )
    }
    if (next.origin !== origin) {
      throw new RedirectError(
        'cross_origin',
        `${current.href} redirects to another origin (${next.href}); not followed`,
        next.href,
      )
    }
    if (hop >= MAX_REDIRECTS) {
      throw new RedirectError(
        'too_many_redirects',
        `${url.href}: more than ${MAX_REDIRECTS} redirects; last to ${next.href}`,
        next.href,
      )
    }
    current = next
  }
}

function resolveLocation(location: string, base: URL): URL | undefined {
  try {
    return new URL(location, base)
  } catch {
    return undefined
  }
}

/** Browser mode: the browser followed the redirects itself; all that is left is to refuse a foreign result. */
async function acceptFollowed(
  response: Response,
  requested: URL,
  origin: string,
  clock: ExchangeClock,
): Promise<Answer> {
  const final = response.url === '' ? requested : new URL(response.url)
  if (final.origin === origin) return { response, url: final, clock }
  await discard(response)
  throw new RedirectError(
    'cross_origin',
    `${requested.href} was redirected to another origin (${final.href}); refused`,
    final.href,
  )
}

async function send(url: URL, ctx: CallContext, clock: ExchangeClock): Promise<Response> {
  const { options, signal } = ctx
  // Every request sent counts in the service's quota, a retry or a redirect's next hop as well.
  await options.pacer.take(options.sleep, signal)
  const headers: Record<string, string> = { accept: ctx.accept ?? 'application/json' }
  // Browsers forbid setting User-Agent, and a non-safelisted header would cost a CORS preflight.
  if (options.mode === 'script') headers['user-agent'] = options.userAgent
  try {
    return await clock.wait(
      options.fetch(url.href, {
        method: 'GET',
        headers,
        credentials: 'omit',
        redirect: options.mode === 'browser' ? 'follow' : 'manual',
        signal: combineSignals(signal, clock.signal),
      }),
    )
  } catch (err) {
    throw wrapNetworkError(err, url, signal, clock)
  }
}

/**
 * The next chunk of a body, read against the clock. A connection broken mid-body is as good as no
 * response (and retried as such).
 */
export async function nextChunk(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  url: URL | string,
  signal: AbortSignal | undefined,
  clock: ExchangeClock,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  try {
    return await clock.wait(reader.read())
  } catch (err) {
    throw wrapNetworkError(err, url, signal, clock)
  }
}

/**
 * An abort stays the signal's reason, an expired clock its limit's error; anything else thrown by
 * fetch or a body read means no (whole) response arrived.
 */
function wrapNetworkError(
  err: unknown,
  url: URL | string,
  signal: AbortSignal | undefined,
  clock: ExchangeClock,
): unknown {
  if (signal?.aborted) return signal.reason
  if (clock.expired !== undefined) return clock.expired
  return new RecordsConnectionError(typeof url === 'string' ? url : url.href, err)
}

type Body = { ok: true; json: unknown } | { ok: false; text: string }

/** The body as text, read against the clock and refused past `maxResponseBytes` (declared or sent). */
async function readBody(response: Response, url: URL, ctx: CallContext, clock: ExchangeClock): Promise<Body> {
  const max = ctx.options.limits.maxResponseBytes
  const declared = Number(response.headers.get('content-length') ?? NaN)
  if (max !== 0 && declared > max) {
    await discard(response)
    throw sizeError('maxResponseBytes', max, url.href, 'the answer declares')
  }
  const chunks: Uint8Array[] = []
  let size = 0
  if (response.body !== null) {
    // A reader rather than `for await`: not every browser makes a ReadableStream async-iterable.
    const reader = response.body.getReader()
    try {
      for (;;) {
        const chunk = await nextChunk(reader, url, ctx.signal, clock)
        if (chunk.done) break
        size += chunk.value.byteLength
        if (max !== 0 && size > max) throw sizeError('maxResponseBytes', max, url.href, 'the answer holds')
        chunks.push(chunk.value)
      }
    } finally {
      // Cancelling closes the connection of a body left unread; after the end it does nothing.
      reader.cancel().catch(() => undefined)
    }
  }
  const text = decodeUtf8(chunks, size)
  try {
    return { ok: true, json: JSON.parse(text) as unknown }
  } catch {
    return { ok: false, text }
  }
}

function parsedOrThrow<T>(body: Body, response: Response, url: URL): T {
  if (body.ok) return body.json as T
  const type = response.headers.get('content-type') ?? 'no content type'
  throw new UnexpectedResponseError(
    response.status,
    'invalid_response',
    `${url.href} answered ${response.status} with a body that is not JSON (${type})`,
    undefined,
    url.href,
  )
}

/** UTF-8 text of the chunks (a byte order mark dropped, bad bytes replaced), as `response.text()` decodes. */
function decodeUtf8(chunks: Uint8Array[], size: number): string {
  if (chunks.length === 1) return new TextDecoder().decode(chunks[0])
  const whole = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    whole.set(chunk, at)
    at += chunk.byteLength
  }
  return new TextDecoder().decode(whole)
}

async function discard(response: Response): Promise<void> {
  // Frees the connection for reuse; the body of a redirect is of no interest.
  await response.body?.cancel().catch(() => undefined)
}
