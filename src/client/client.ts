/**
 * `RecordsClient`: the reference client of the public Reference-Records API (docs/spec.md §4, §7). Works with
 * the global `fetch` of Node 20+ and of browsers, and imports nothing outside its own folder, so a
 * browser bundle (and its type declarations) pulls no zod and no server code.
 */
import {
  checkMaxRetries,
  resolveOptions,
  type ListQuery,
  type RecordsClientOptions,
  type RequestOptions,
  type ResolvedOptions,
  type SearchQuery,
} from './options.js'
import { PAGE_SIZE, pageAll, type PageEvent } from './paging.js'
import { readNdjson } from './download.js'
import { RedirectError } from './errors.js'
import { getJson, getWith } from './request.js'
import { combineSignals } from './signals.js'
import type { Catalogue, ChangeFeed, ChangesQuery, Fact, SearchEnvelope } from './wire.js'

/** The download as `snapshot()` gives it: the publication it is, its checksum, its records as they arrive. */
export type SnapshotDownload = {
  /** The download's X-Publication-Id: where the change feed follows from (undefined from a server without one). */
  publication: string | undefined
  /** SHA-256 (hex) of the records in id order, each JSON text followed by "\n" (X-Records-Checksum). */
  checksum: string | undefined
  records: AsyncGenerator<Fact>
}

/**
 * Options of `download()` and `snapshot()`: those of every call, plus the most records the download
 * may hold (more is an error, `ResponseLimitError` with limit `maxDownloadRecords`). Give the
 * catalogue's count with room for a publication landing meanwhile, as `downloadBound` does.
 */
export type DownloadOptions = RequestOptions & { maxRecords?: number }

/**
 * The most records a download may hold when the catalogue just counted `total`: twice that, and
 * at least 10 000 more, so a publication landing between the two requests still fits, while an
 * endless download stops early.
 */
export const downloadBound = (total: number): number => Math.max(2 * total, total + 10_000)

/** Options of `all()`: those of every call, plus a hook called after each page. */
export type AllOptions = RequestOptions & { onPage?: (event: PageEvent) => void }

/**
 * Reads the API. Every read is a live read (`po_live=1` is sent, so no redirect is paid for); a 307
 * is still followed, on the same origin only, at most 3 hops. 429 and 503 answers are retried as
 * docs/spec.md §7 says; failures throw a `RecordsClientError` subclass, an abort rejects with its reason.
 *
 * @example
 * const client = new RecordsClient({ baseUrl: 'https://records.example.org/api/v1' })
 * const { results, total } = await client.search({ q: 'priorité à droite', kind: 'lesson' })
 * for await (const record of client.all({ kind: 'fact' })) console.log(record.id, record.title)
 */
export class RecordsClient {
  readonly #options: ResolvedOptions

  constructor(options: RecordsClientOptions = {}) {
    this.#options = resolveOptions(options)
  }

  /** The API root this client reads, without a trailing slash. */
  get baseUrl(): string {
    return this.#options.baseUrl.href.replace(/\/$/, '')
  }

  /** The retry mode in force: `browser` or `script` (what `mode: 'auto'` detected). */
  get mode(): 'browser' | 'script' {
    return this.#options.mode
  }

  /** `GET {base}/`: record counts per kind, links, limits and reuse conditions. */
  async catalogue(options?: RequestOptions): Promise<Catalogue> {
    const catalogue = await this.#get<Catalogue>('/', {}, options)
    // With requestsPerMinute 'auto', the quota the service advertises is the pace from now on.
    this.#options.pacer.adopt(
      (catalogue as { limits?: { requests_per_minute?: unknown } } | null)?.limits?.requests_per_minute,
    )
    return catalogue
  }

  /**
   * `GET {base}/facts`: one page of matching records (default 10, at most 50).
   * @example
   * const page = await client.search({ q: 'alcool', region: 'france', limit: 20, offset: 20 })
   */
  search(query: SearchQuery = {}, options?: RequestOptions): Promise<SearchEnvelope> {
    return this.#get<SearchEnvelope>('/facts', query, options)
  }

  /** `GET {base}/facts/{id}`: one record with its provenance; `NotFoundError` when unknown. */
  get(id: string, options?: RequestOptions): Promise<Fact> {
    // `.` and `..` would be resolved away by URL parsing and read another resource.
    if (id === '' || id === '.' || id === '..') {
      return Promise.reject(new TypeError(`RecordsClient.get: "${id}" is not a record id`))
    }
    return this.#get<Fact>(`/facts/${encodeURIComponent(id)}`, {}, options)
  }

  /** `GET {base}/openapi.json`: the OpenAPI 3.1 description of the API. */
  openapi(options?: RequestOptions): Promise<Record<string, unknown>> {
    return this.#get<Record<string, unknown>>('/openapi.json', {}, options)
  }

  /**
   * Every matching record, once each, paging with `limit=50` until offset reaches total. Throws
   * `PagingAnomalyError` on an empty page before the total (never a silently short listing) and
   * `SearchTooBroadError` when more records match than offset 10 000 can reach.
   * @example
   * for await (const record of client.all({ kind: 'fact' }, { onPage: (p) => console.error(p.received, '/', p.total) })) {}
   */
  all(query: ListQuery = {}, options: AllOptions = {}): AsyncGenerator<Fact> {
    const { onPage, ...requestOptions } = options
    const { q, kind, region } = query // limit and offset are all()'s business, even if an untyped caller passes them
    return pageAll(
      (offset) => this.search({ q, kind, region, limit: PAGE_SIZE, offset }, requestOptions),
      onPage,
    )
  }

  /**
   * Every record of the served snapshot in one request, from the catalogue's `links.download`
   * (`GET {base}/facts.ndjson`): one request in the quota instead of one per 50 records, and no
   * 10 050-record limit. Read as it arrives. A link on another origin than the API root throws
   * `RedirectError` (as a cross-origin redirect would); 429 and 503 are retried as for every call.
   * @example
   * const { links } = await client.catalogue()
   * if (links.download) for await (const record of client.download(links.download)) console.log(record.id)
   */
  async *download(href: string, options: DownloadOptions = {}): AsyncGenerator<Fact> {
    yield* (await this.snapshot(href, options)).records
  }

  /**
   * The download (see `download`) with the publication it represents and its checksum, read from
   * its headers, for a mirror that then follows `changes()`.
   */
  async snapshot(href: string, options: DownloadOptions = {}): Promise<SnapshotDownload> {
    const url = new URL(href, this.#options.baseUrl)
    if (url.origin !== this.#options.baseUrl.origin) {
      throw new RedirectError(
        'cross_origin',
        `The download link ${url.href} is on another origin than ${this.baseUrl}; not followed`,
        url.href,
      )
    }
    if (options.maxRetries !== undefined) checkMaxRetries(options.maxRetries)
    const signal = combineSignals(this.#options.signal, options.signal)
    const context = {
      options: this.#options,
      signal,
      maxRetries: options.maxRetries ?? this.#options.maxRetries,
      accept: 'application/x-ndjson',
    }
    const { response, clock } = await getWith(url, context, async (answer, _target, clock) => ({
      response: answer,
      clock,
    }))
    // The body may take long to come whole: from here the download's own budget applies.
    clock.rebudget('downloadTimeoutMs', this.#options.limits.downloadTimeoutMs)
    const checksum = /^sha256=([0-9a-f]{64})$/.exec(response.headers.get('x-records-checksum') ?? '')?.[1]
    return {
      publication: response.headers.get('x-publication-id') ?? undefined,
      checksum,
      records: readNdjson(response, {
        url: url.href,
        signal,
        clock,
        limits: this.#options.limits,
        maxRecords: options.maxRecords,
      }),
    }
  }

  /**
   * `GET {base}/changes`: what the publications after `since` (a publication id or an RFC 3339 time)
   * added, changed and removed; pass the answer's `next` as `cursor` for the following page.
   * `ChangesGoneError` (410) when `since` is older than the service keeps: download again.
   * @example
   * const page = await client.changes({ since: '42' })
   */
  changes(query: ChangesQuery, options: RequestOptions = {}): Promise<ChangeFeed> {
    if (options.maxRetries !== undefined) checkMaxRetries(options.maxRetries)
    const url = new URL(this.#options.baseUrl.href)
    url.pathname += '/changes'
    const params = new URLSearchParams()
    for (const name of ['since', 'cursor', 'limit'] as const) {
      const value = query[name]
      if (value !== undefined) params.append(name, String(value))
    }
    url.search = params.toString()
    return getJson<ChangeFeed>(url, {
      options: this.#options,
      signal: combineSignals(this.#options.signal, options.signal),
      maxRetries: options.maxRetries ?? this.#options.maxRetries,
    })
  }

  #get<T>(path: string, query: SearchQuery, options: RequestOptions = {}): Promise<T> {
    if (options.maxRetries !== undefined) checkMaxRetries(options.maxRetries)
    return getJson<T>(this.#url(path, query), {
      options: this.#options,
      signal: combineSignals(this.#options.signal, options.signal),
      maxRetries: options.maxRetries ?? this.#options.maxRetries,
    })
  }

  /** `po_live=1` first, then the parameters given, in a fixed order (so request logs are stable). */
  #url(path: string, query: SearchQuery): URL {
    const url = new URL(this.#options.baseUrl.href)
    url.pathname += path
    const params = new URLSearchParams({ po_live: '1' })
    for (const name of ['q', 'kind', 'region', 'match', 'limit', 'offset'] as const) {
      const value = query[name]
      if (value !== undefined) params.append(name, String(value))
    }
    url.search = params.toString()
    return url
  }
}
