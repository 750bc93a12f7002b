/**
 * Dispatch: the API's answers as data, and the fast path that sends the prepared ones without the
 * framework. Status, header fields and body bytes are built by one set of functions whichever path
 * sends them (the framework's routes, or the fast path in front of it), so the two cannot answer the
 * same request differently. Bodies that need no work per request — the catalogue, the OpenAPI
 * document, each record, every search answered once — are prepared here and kept per snapshot, with
 * their compressed variants.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { LRUCache } from 'lru-cache'
import type { Catalogues } from '../core/api/catalogue.js'
import type { ApiError } from '../core/errors.js'
import { verificationAgeField } from '../core/records/status.js'
import type { RecordIndex } from '../core/search/record-index.js'
import type { LiveRecords } from '../core/snapshots/live-records.js'
import type { Admission, Target } from './admission.js'
import type { PreparedCors } from './cors.js'
import { plainRecordId, RECORD_PREFIX, type LiveReadRoute } from './live-read-routes.js'
import { buildOpenApiDocument } from './openapi.js'
import {
  PreparedBody,
  ifNoneMatchHits,
  preferredEncoding,
  taggedFor,
  type Encoding,
} from './prepared-body.js'
import {
  answerWriter,
  fieldsOf,
  writeRefusal,
  type Answer,
  type Completions,
  type CounterCell,
} from './respond.js'
import { ResponseCache } from './response-cache.js'

export const JSON_TYPE = 'application/json; charset=utf-8'
/** The 307 may be cached: it depends on the request target alone. */
const REDIRECT_CACHE_CONTROL = 'public, max-age=86400'
/** Live reads may be kept by caches, but revalidated: a cheap 304 thanks to the ETag. */
const LIVE_CACHE_CONTROL = 'no-cache'

/** An answer from its status, fields and body. */
const answerOf = (status: number, flat: readonly string[], body: Buffer | undefined): Answer => ({
  status,
  fields: fieldsOf(flat),
  body,
})

/** The request header fields an answer depends on. */
export type Conditions = { ifNoneMatch: string | undefined; acceptEncoding: string | undefined }

/** The answers made of each prepared body: per encoding (identity, br, gzip), its 200 then its 304. */
const madeAnswers = new WeakMap<PreparedBody, (Answer | undefined)[]>()
const ENCODING_SLOT = { identity: 0, br: 2, gzip: 4 } as const

/**
 * A prepared body as the client asked for it: in its best accepted encoding, or 304 when it has that
 * one. Each of its six answers is made once, the first time it is asked for, and then shared.
 */
export function jsonAnswer(prepared: PreparedBody, conditions: Conditions): Answer {
  const encoding = prepared.compressible ? preferredEncoding(conditions.acceptEncoding) : undefined
  const slot =
    ENCODING_SLOT[encoding ?? 'identity'] +
    (ifNoneMatchHits(conditions.ifNoneMatch, taggedFor(prepared.etag, encoding)) ? 1 : 0)
  let answers = madeAnswers.get(prepared)
  if (answers === undefined) madeAnswers.set(prepared, (answers = []))
  return (answers[slot] ??= makeJsonAnswer(prepared, encoding, slot % 2 === 1))
}

function makeJsonAnswer(
  prepared: PreparedBody,
  encoding: Encoding | undefined,
  notModified: boolean,
): Answer {
  const headers = [
    'etag',
    taggedFor(prepared.etag, encoding),
    'cache-control',
    LIVE_CACHE_CONTROL,
    ...prepared.fields,
  ]
  // Only a body that may be compressed varies with Accept-Encoding.
  if (prepared.compressible) headers.push('vary', 'Accept-Encoding')
  if (notModified) return answerOf(304, headers, undefined)
  const body = encoding === undefined ? prepared.body : prepared.encodedSync(encoding)
  headers.push('content-type', prepared.type)
  if (encoding !== undefined) headers.push('content-encoding', encoding)
  headers.push('content-length', String(body.length))
  return answerOf(200, headers, body)
}

/** Location of the live read of `url` (a request target such as "/api/v1/facts?q=x"): the target alone, never the Host. */
function liveReadLocation(url: string, publicBaseUrl: string | undefined): string {
  const q = url.indexOf('?')
  const target = q === -1 ? `${url}?po_live=1` : q === url.length - 1 ? `${url}po_live=1` : `${url}&po_live=1`
  return publicBaseUrl === undefined ? target : publicBaseUrl + target
}

/**
 * The 307 to the live read. Its body names the live address too, so a client that does not follow
 * redirects (`curl URL | jq`) still sees where to go.
 */
function redirectAnswer(url: string, publicBaseUrl: string | undefined): Answer {
  const location = liveReadLocation(url, publicBaseUrl)
  const body = Buffer.from(JSON.stringify({ location }))
  return answerOf(
    307,
    [
      'location',
      location,
      'cache-control',
      REDIRECT_CACHE_CONTROL,
      'content-type',
      JSON_TYPE,
      'content-length',
      String(body.length),
    ],
    body,
  )
}

const VERIFIED_AT_KEY = Buffer.from('"verified_at"')
const DAY_MS = 86_400_000

/** Records whose prepared bodies (and compressed variants) are kept per snapshot; a variant is ~1 KB, so about 20 MB at most. */
const MAX_RECORD_BODIES = 20_000
/** 307s kept, by request target: they depend on it alone (and on the configured base URL). */
const MAX_REDIRECTS = 10_000

/** Marks a request whose search the answer cache did not hold (for that snapshot). */
const SEARCH_MISSED = Symbol('reference-records.searchMissed')

/** Prepared bodies of one service: built on first use, per snapshot where they depend on the records. */
export class ApiAnswers {
  readonly openapi: PreparedBody
  /** Finished search answers, per snapshot, keyed by the request target (bounded in bytes). */
  readonly searches = new ResponseCache()
  readonly #catalogues = new WeakMap<RecordIndex, { json: string; prepared: PreparedBody }>()
  readonly #records = new WeakMap<RecordIndex, { day: number; bodies: LRUCache<string, PreparedBody> }>()
  readonly #redirects = new LRUCache<string, Answer>({ max: MAX_REDIRECTS })

  constructor(
    private readonly catalogues: Catalogues,
    private readonly publicBaseUrl: string | undefined,
  ) {
    this.openapi = new PreparedBody(
      JSON.stringify(buildOpenApiDocument(publicBaseUrl, catalogues.options.contact)),
      JSON_TYPE,
      'fast',
    )
  }

  /** The catalogue's body, made again when the catalogue is (a new day changes its count of rules to re-verify). */
  catalogue(index: RecordIndex): PreparedBody {
    const { json } = this.catalogues.of(index)
    let kept = this.#catalogues.get(index)
    if (kept === undefined || kept.json !== json)
      this.#catalogues.set(index, (kept = { json, prepared: new PreparedBody(json, JSON_TYPE, 'fast') }))
    return kept.prepared
  }

  /**
   * Record `id`'s body (its bytes and ETag from the snapshot), undefined when the snapshot has no such
   * record. Kept by id, so a record read again is a lookup, and its answers and compressed variants
   * are made once — per UTC day, since its `Verification-Age` field grows by one each day.
   */
  record(index: RecordIndex, id: string, at: number = Date.now()): PreparedBody | undefined {
    // The UTC day as a number: this runs on every record read, where a Date would cost more.
    const day = Math.floor(at / DAY_MS)
    let kept = this.#records.get(index)
    if (kept === undefined || kept.day !== day)
      this.#records.set(index, (kept = { day, bodies: new LRUCache({ max: MAX_RECORD_BODIES }) }))
    let prepared = kept.bodies.get(id)
    if (prepared !== undefined) return prepared
    const entry = index.get(id)
    if (entry !== undefined) {
      // Only a record that has a verification date is parsed (once a day) to read it.
      const age = entry.bytes.includes(VERIFIED_AT_KEY)
        ? verificationAgeField(entry.record, new Date(at))
        : undefined
      const fields = age === undefined ? [] : ['verification-age', age]
      kept.bodies.set(id, (prepared = new PreparedBody(entry.bytes, JSON_TYPE, 'fast', entry.etag, fields)))
    }
    return prepared
  }

  /**
   * The search answer kept for `req`'s target (normalised by the front door), read once per request:
   * a miss the fast path saw is not looked up again by the framework's route.
   */
  searchAnswer(index: RecordIndex, req: IncomingMessage): PreparedBody | undefined {
    const marked = req as IncomingMessage & { [SEARCH_MISSED]?: RecordIndex }
    if (marked[SEARCH_MISSED] === index) return undefined
    const kept = this.searches.get(index, req.url!)
    if (kept === undefined) marked[SEARCH_MISSED] = index
    return kept
  }

  /** The 307 to the live read of `url` (a normalised request target). */
  redirect(url: string): Answer {
    let answer = this.#redirects.get(url)
    if (answer === undefined) this.#redirects.set(url, (answer = redirectAnswer(url, this.publicBaseUrl)))
    return answer
  }
}

/*
 * The fast path
 *
 * The fast path: answers that are already prepared — a record, a search answered before, the
 * catalogue, the OpenAPI document, their 304s, the 307 to a live read, and the quota's 429 — sent
 * straight from the front door, without the framework's per-request machinery (hooks, reply
 * objects, a child logger, a second parse of the query). It decides nothing of its own: the bodies
 * come from ApiAnswers and the answers from the same builders the framework's routes use
 * (above, and respond.ts); anything else — a first search, a parameter to validate, an
 * unknown record, a body, an error — is handed to the framework, which answers it as before. A
 * differential test (test/e2e/fast-path.test.ts) replays requests with the fast path on and off and
 * compares status, header fields and bytes.
 
 */

export type FastPathDeps = {
  records: LiveRecords
  answers: ApiAnswers
  /** The API's CORS and security header fields. */
  cors: PreparedCors
  /** Counts every answer sent here (metrics). */
  answered?: CounterCell
  /** Where each answer sent here is reported (log and metrics). */
  completions: Completions
}

export type FastPath = {
  /**
   * Answers the admitted `req` and returns true, or returns false without touching it (the framework
   * answers, applying the same admission).
   */
  serve(req: IncomingMessage, res: ServerResponse, target: Target, admission: Admission): boolean
}

export function createFastPath(deps: FastPathDeps): FastPath {
  const writeApiAnswer = answerWriter(deps.cors)

  /** The prepared body of a live read, when the answer needs no validation and no index work. */
  const preparedBody = (
    req: IncomingMessage,
    route: LiveReadRoute,
    target: Target,
  ): PreparedBody | undefined => {
    if (route === 'openapi') return target.query === 'po_live=1' ? deps.answers.openapi : undefined
    const index = deps.records.current
    if (index === undefined) return undefined // the framework answers 503
    if (route === 'search') return deps.answers.searchAnswer(index, req)
    if (target.query !== 'po_live=1') return undefined // any other parameter is validated by the framework
    if (route === 'catalogue') return deps.answers.catalogue(index)
    return deps.answers.record(index, target.path.slice(RECORD_PREFIX.length))
  }

  /** Counts and logs an answer sent here. */
  const sent = (req: IncomingMessage, res: ServerResponse, id: string, route: string) => {
    if (deps.answered !== undefined) deps.answered.value++
    deps.completions.ended(req, res, route, id)
  }

  /** The quota's refusal, built when it happens (never on the hot path). */
  const sendRefusal = (
    req: IncomingMessage,
    res: ServerResponse,
    admission: Admission,
    error: ApiError,
    route: string,
  ) => {
    writeRefusal(res, { error, cors: deps.cors, admitted: admission })
    sent(req, res, admission.id, route)
  }

  return {
    serve(req, res, target, admission) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false
      // The admission read the route (route-table.ts): not read again here.
      const route = admission.route?.liveRead
      if (route === undefined || (route === 'record' && plainRecordId(target.path) === undefined))
        return false
      // A request with a body is the framework's to refuse.
      const headers = req.headers
      if (headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0')
        return false
      const outcome = admission.outcome
      let answer: Answer
      if (outcome === undefined) {
        const prepared = preparedBody(req, route, target)
        if (prepared === undefined) return false
        const acceptEncoding = headers['accept-encoding']
        answer = jsonAnswer(prepared, {
          ifNoneMatch: headers['if-none-match'],
          acceptEncoding: Array.isArray(acceptEncoding) ? acceptEncoding.join(', ') : acceptEncoding,
        })
      } else if (outcome.kind === 'redirect') answer = outcome.answer
      else if (
        outcome.kind === 'refusal' &&
        outcome.error.code === 'rate_limited' &&
        admission.quota !== undefined
      ) {
        sendRefusal(req, res, admission, outcome.error, deps.completions.liveReadRoute(route, target.path))
        return true
      } else return false // another refusal: answered by the framework in the route's terms
      writeApiAnswer(res, answer.status, answer.fields, answer.body, admission)
      sent(req, res, admission.id, deps.completions.liveReadRoute(route, target.path))
      return true
    },
  }
}
