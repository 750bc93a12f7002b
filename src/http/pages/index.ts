/**
 * Pages for people, next to the API: `/` (home), `/docs` (the guides), `/reference` (the interactive
 * API reference), `/recherche` (search) and `/fiches/{id}` (a record), with their assets under
 * `/assets`. They read the records through the core (the reader, the catalogue, the served
 * snapshot), never through HTTP. Searches and record pages count in the client's quota like API
 * requests; a refusal is a page that says when to come back.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import Negotiator from 'negotiator'
import type { Catalogues } from '../../core/api/catalogue.js'
import { LocalRecordReader, currentSnapshot } from '../../core/api/reader.js'
import { ApiError } from '../../core/errors.js'
import { RecordIdSchema } from '../../core/records/record.js'
import type { RecordIndex } from '../../core/search/record-index.js'
import type { LiveRecords } from '../../core/snapshots/live-records.js'
import { rawQuery } from '../query.js'
import { ASSETS_ROOT, Assets, IMMUTABLE } from './assets.js'
import type { NotFoundPage } from '../error-handler.js'
import { renderErrorPage } from './errors.js'
import { GUIDES, renderGuide, renderGuidePage } from './guide.js'
import { renderHomePage } from './home.js'
import type { Site } from './layout.js'
import { renderReferencePage } from './reference.js'
import { renderRecordPage } from './record.js'
import { SITE_NAME } from './record-metadata.js'
import { recordPath } from './record-view.js'
import { Representation, sendRepresentation } from './representation.js'
import { PAGE_SIZE, SEARCH_PATH, parseSearchPageQuery } from './search-params.js'
import { renderSearchPage } from './search.js'
import { SnapshotPageCache } from './snapshot-cache.js'

export type PagesDeps = {
  records: LiveRecords
  catalogues: Catalogues
  publicBaseUrl?: string
  /** Requests per minute per client, when a quota is enforced (said on the 429 page). */
  quotaPerMinute?: number
}

const HTML = 'text/html; charset=utf-8'
const MARKDOWN = 'text/markdown; charset=utf-8'
/** Pages change with the records: caches keep them but revalidate, a cheap 304 thanks to the ETag. */
const REVALIDATE = 'no-cache'

/** The pages' policy: their own script, stylesheet and icon, forms to this site, nothing else. */
export const PAGE_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

/** What the app asks of the pages after registering them. */
export type Pages = {
  /** The 404 page for an unknown path, when the client prefers HTML (a browser); undefined otherwise. */
  notFoundPage(req: FastifyRequest): NotFoundPage | undefined
}

export function registerPages(app: FastifyInstance, deps: PagesDeps): Pages {
  const base = deps.publicBaseUrl ?? ''
  const site: Site = { base, assets: new Assets(base) }
  const reader = new LocalRecordReader(deps.records, deps.catalogues)
  const cache = new SnapshotPageCache()
  const page = (text: string) => new Representation(text, HTML)
  /** A page made per query: many of them, each read a few times. */
  const queryPage = (text: string) => new Representation(text, HTML, undefined, 'fast')
  const send = (req: FastifyRequest, reply: FastifyReply, rep: Representation, vary?: string) =>
    sendRepresentation(req, reply, rep, { cacheControl: REVALIDATE, vary })
  const config = {
    errorPage: (err: ApiError, status: number, target: string) =>
      renderErrorPage(err, status, site, { quotaPerMinute: deps.quotaPerMinute, path: target }),
  }
  const get = <P extends Record<string, string>>(
    path: string,
    handler: (req: FastifyRequest<{ Params: P }>, reply: FastifyReply) => Promise<FastifyReply>,
  ) => {
    app.get<{ Params: P }>(path, { config }, handler)
  }

  get('/', async (req, reply) => {
    const snapshot = currentSnapshot(deps.records)
    // The count of rules to re-verify grows with the days: one home page per snapshot and per UTC day.
    const rep = await cache.get(snapshot, `home:${new Date().toISOString().slice(0, 10)}`, async () => {
      const [catalogue, organizations] = await Promise.all([
        reader.catalogue(),
        reader.search({ kind: 'organization', limit: 50, offset: 0 }),
      ])
      return page(
        renderHomePage(site, {
          catalogue,
          publishers: organizations.results,
          publicBaseUrl: deps.publicBaseUrl,
        }),
      )
    })
    return send(req, reply, rep)
  })

  get(SEARCH_PATH, async (req, reply) => {
    const params = parseSearchPageQuery(rawQuery(req.url))
    const snapshot = currentSnapshot(deps.records)
    const key = `search:${JSON.stringify([params.q, params.kind, params.region, params.match ?? 'best', params.page])}`
    const rep = await cache.get(snapshot, key, async () => {
      const match = params.match ?? 'best'
      // Best match goes on past its total: one result more than the page shows says whether a next page exists.
      const peek = match === 'best' ? 1 : 0
      const found = await reader.search({
        q: params.q,
        kind: params.kind,
        region: params.region,
        match,
        limit: PAGE_SIZE + peek,
        offset: (params.page - 1) * PAGE_SIZE,
      })
      const more = found.results.length > PAGE_SIZE
      const envelope = { ...found, limit: PAGE_SIZE, results: found.results.slice(0, PAGE_SIZE) }
      return queryPage(renderSearchPage(site, params, envelope, more))
    })
    return send(req, reply, rep)
  })

  get<{ id: string }>('/fiches/:id', async (req, reply) => {
    const { id } = req.params
    if (!RecordIdSchema.safeParse(id).success) {
      throw new ApiError(
        'not_found',
        `« ${id.slice(0, 60)} » n’est pas un identifiant de fiche (par exemple fait-643b555e754f953d).`,
      )
    }
    const snapshot = currentSnapshot(deps.records)
    const now = new Date()
    // The page says how old the verification is, in days at first: a page per record and per UTC day.
    const today = now.toISOString().slice(0, 10)
    const rep = await cache.get(snapshot, `fiche:${id}:${today}`, async () => {
      const [record, organizations] = await Promise.all([
        reader.get(id),
        reader.search({ kind: 'organization', limit: 1, offset: 0 }),
      ])
      if (record === undefined)
        throw new ApiError(
          'not_found',
          `Aucune fiche n’a l’identifiant « ${id} » : elle a peut-être été retirée.`,
        )
      const organization = organizations.results[0]
      const publisher =
        organization === undefined ? { name: SITE_NAME } : { name: organization.title, url: organization.url }
      return queryPage(renderRecordPage(site, record, { related: relatedLookup(snapshot), publisher, now }))
    })
    return send(req, reply, rep)
  })
  get('/fiches', async (_req, reply) => reply.redirect(`${base}${SEARCH_PATH}`, 301))

  registerGuides(app, site, get)
  const reference = page(renderReferencePage(site))
  get('/reference', async (req, reply) => send(req, reply, reference))

  app.get<{ Params: { hash: string; name: string } }>(`${ASSETS_ROOT}/:hash/:name`, async (req, reply) => {
    const asset = site.assets.find(req.params.hash, req.params.name)
    if (asset === undefined) throw new ApiError('not_found', `No such asset: ${req.params.name}`)
    return sendRepresentation(req, reply, asset, { cacheControl: IMMUTABLE })
  })
  return {
    notFoundPage(req) {
      if (new Negotiator(req).mediaType(['application/json', 'text/html']) !== 'text/html') return undefined
      const path = req.url.split('?', 1)[0]!.slice(0, 100)
      return {
        error: new ApiError('not_found', `Aucune page à l’adresse ${path}.`),
        render: config.errorPage,
      }
    },
  }
}

type GetRoute = (
  path: string,
  handler: (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>,
) => void

/** Each guide as HTML at its address (Markdown with `Accept: text/markdown`), and as Markdown at address + ".md". */
function registerGuides(app: FastifyInstance, site: Site, get: GetRoute): void {
  // Not rendered before the start: markdown-it takes about a sixth of the start's CPU, which a start
  // shares with the first records build. Nor at the first request for a guide, which held the
  // serving thread half a second on a busy machine (issue 43): once the service is ready, one guide
  // per turn of the event loop, each a few milliseconds. A request before that renders them itself.
  let rendered: { html: Representation; markdown: Representation }[] | undefined
  const sources: ReturnType<typeof renderGuide>[] = []
  const finish = () => {
    while (sources.length < GUIDES.length) sources.push(renderGuide(GUIDES[sources.length]!, site.base))
    rendered ??= sources.map((g) => ({
      html: new Representation(renderGuidePage(site, g, sources), HTML),
      markdown: new Representation(g.markdown, MARKDOWN),
    }))
    return rendered
  }
  const guide = (i: number) => (rendered ?? finish())[i]!
  app.addHook('onReady', async () => {
    const step = () => {
      if (rendered !== undefined) return
      if (sources.length < GUIDES.length) sources.push(renderGuide(GUIDES[sources.length]!, site.base))
      else finish()
      setImmediate(step).unref()
    }
    setImmediate(step).unref()
  })
  GUIDES.forEach((source, i) => {
    get(source.path, async (req, reply) => {
      const wanted = new Negotiator(req).mediaType(['text/html', 'text/markdown'])
      return sendRepresentation(req, reply, wanted === 'text/markdown' ? guide(i).markdown : guide(i).html, {
        cacheControl: REVALIDATE,
        vary: 'Accept',
      })
    })
    get(`${source.path}.md`, async (req, reply) =>
      sendRepresentation(req, reply, guide(i).markdown, { cacheControl: REVALIDATE }),
    )
  })
  get('/docs/', async (_req, reply) => reply.redirect(`${site.base}/docs`, 308))
  get('/docs/*', async (req) => {
    throw new ApiError(
      'not_found',
      `Aucun guide à l’adresse ${req.url.split('?', 1)[0]!.slice(0, 100)} ; les guides sont listés sur /docs.`,
    )
  })
}

/** Related records are given by their original address; those that are records of the snapshot link to their page here. */
function relatedLookup(snapshot: RecordIndex): (url: string) => string | undefined {
  return (url) => {
    const entry = snapshot.findByUrl(url)
    return entry === undefined ? undefined : recordPath(entry.record.id)
  }
}
