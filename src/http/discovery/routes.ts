/**
 * The discovery documents, outside /api/v1: `/robots.txt`, `/llms.txt`, `/server.json`,
 * `/.well-known/mcp/server-card.json`, `/sitemap.xml` (with its parts under `/sitemaps/`, when it
 * must be split) and `/catalog.jsonld` (DCAT). Each counts in the client's quota like a page
 * (docs/contract.md "Extensions beyond the spec": feeds for crawlers "count in the quota like
 * pages"), answers GET and HEAD (405 otherwise, with the error body), and carries the API's public
 * CORS, which the headers table gives any path it does not list. server.json and the card depend
 * on the settings only, so they are built once and served even before the first snapshot; llms.txt,
 * the sitemap and the DCAT description describe records, so they are rendered per snapshot (503
 * before one).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import Negotiator from 'negotiator'
import { DISCOVERY_PATHS, catalogueLinks, type Catalogues } from '../../core/api/catalogue.js'
import { LocalRecordReader, currentSnapshot } from '../../core/api/reader.js'
import type { Catalogue } from '../../core/api/schemas.js'
import { strongEtag } from '../../core/etag.js'
import type { LiveRecords } from '../../core/snapshots/live-records.js'
import { Representation, sendRepresentation } from '../pages/representation.js'
import { SnapshotPageCache } from '../pages/snapshot-cache.js'
import {
  serverIdentity,
  type DiscoverySettings,
  type McpDescription,
  type ServerIdentity,
} from './identity.js'
import { DCAT_MEDIA_TYPE, buildDcat } from './dcat.js'
import { buildLlmsTxt } from './llms-txt.js'
import { ROBOTS_PATH, buildRobotsTxt } from './robots-txt.js'
import { SERVER_CARD_MEDIA_TYPE, buildServerCard, hostedServerCardPath } from './server-card.js'
import { buildServerJson } from './server-json.js'
import { ApiError } from '../../core/errors.js'
import { recordPath } from '../pages/record-view.js'
import { SnapshotSitemaps } from './prepared-sitemaps.js'
import { SITEMAP_PARTS_ROOT } from './sitemap.js'
import { keptUntilFailure } from '../../core/kept-promise.js'

const JSON_TYPE = 'application/json; charset=utf-8'
const LLMS_TYPE = 'text/plain; charset=utf-8'
const ROBOTS_TYPE = 'text/plain; charset=utf-8'
const DCAT_TYPE = `${DCAT_MEDIA_TYPE}; charset=utf-8`
/** llms.txt changes with the records: kept, but revalidated (a cheap 304), as the pages are. */
const REVALIDATE = 'no-cache'
/** server.json and the card change only with a deployment: the hour the Server Card extension suggests. */
const SETTLED = 'public, max-age=3600'

export type DiscoveryDeps = {
  records: LiveRecords
  catalogues: Catalogues
  publicBaseUrl?: string
  /** The package version. */
  version: string
  /** The MCP endpoint the documents describe; required when the catalogue links one. */
  mcp?: McpDescription
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

type GetRoute = (
  path: string,
  handler: (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>,
) => void

export function registerDiscovery(app: FastifyInstance, deps: DiscoveryDeps): void {
  const links = catalogueLinks(deps.catalogues.options)
  if (links.mcp !== undefined && deps.mcp === undefined) {
    throw new Error(
      'http: the catalogue links an MCP endpoint, but no MCP description was given for its discovery documents',
    )
  }
  const settings: DiscoverySettings = {
    publicBaseUrl: deps.publicBaseUrl,
    version: deps.version,
    links,
    mcp: deps.mcp,
  }
  const get: GetRoute = (path, handler) => void app.get(path, handler)
  const identity = serverIdentity(settings)
  if (identity !== undefined) registerServerDocuments(get, identity, links)
  registerRobotsTxt(get, deps)
  registerLlmsTxt(get, deps, identity)
  registerSitemap(app, get, deps)
  registerDcat(get, deps)
}

/** server.json and the Server Card of the MCP endpoint `identity` describes. */
function registerServerDocuments(get: GetRoute, identity: ServerIdentity, links: Catalogue['links']): void {
  const serverJson = new Representation(json(buildServerJson(identity)), JSON_TYPE)
  get(DISCOVERY_PATHS.serverJson, async (req, reply) =>
    sendRepresentation(req, reply, serverJson, { cacheControl: SETTLED }),
  )
  // The same card under its own media type when a client asks for it (the extension says clients
  // should, and servers should answer it); plain JSON otherwise. Built at the first request, when
  // the endpoint is asked which revisions it serves.
  const cards = keptUntilFailure(async () => {
    const text = json(buildServerCard(identity, links, await identity.mcp.protocolVersions()))
    const typedTag = strongEtag(`${SERVER_CARD_MEDIA_TYPE}\n${text}`)
    return {
      json: new Representation(text, JSON_TYPE),
      typed: new Representation(text, SERVER_CARD_MEDIA_TYPE, typedTag),
    }
  })
  const serveCard: Parameters<GetRoute>[1] = async (req, reply) => {
    const card = await cards()
    const typed =
      new Negotiator(req).mediaType(['application/json', SERVER_CARD_MEDIA_TYPE]) === SERVER_CARD_MEDIA_TYPE
    return sendRepresentation(req, reply, typed ? card.typed : card.json, {
      cacheControl: SETTLED,
      vary: 'Accept',
    })
  }
  get(DISCOVERY_PATHS.serverCard, serveCard)
  if (links.mcp !== undefined) get(hostedServerCardPath(links.mcp), serveCard)
}

/** robots.txt, from the settings alone: served before the first snapshot, like server.json. */
function registerRobotsTxt(get: GetRoute, deps: DiscoveryDeps): void {
  const robots = new Representation(
    buildRobotsTxt({
      publicBaseUrl: deps.publicBaseUrl,
      sitemapPath: DISCOVERY_PATHS.sitemap,
      mcpPath: deps.catalogues.options.mcpPath,
    }),
    ROBOTS_TYPE,
  )
  get(ROBOTS_PATH, async (req, reply) => sendRepresentation(req, reply, robots, { cacheControl: SETTLED }))
}

/** llms.txt, rendered once per snapshot: it counts the snapshot's records. */
function registerLlmsTxt(get: GetRoute, deps: DiscoveryDeps, identity: ServerIdentity | undefined): void {
  const reader = new LocalRecordReader(deps.records, deps.catalogues)
  const cache = new SnapshotPageCache()
  const describeMcp = async (mcp: McpDescription) => ({
    protocolVersions: await mcp.protocolVersions(),
    tools: await mcp.tools(),
  })
  get(DISCOVERY_PATHS.llms, async (req, reply) => {
    const rep = await cache.get(currentSnapshot(deps.records), 'llms.txt', async () => {
      const [catalogue, organizations, mcp] = await Promise.all([
        reader.catalogue(),
        reader.search({ kind: 'organization', limit: 50, offset: 0 }),
        identity === undefined ? undefined : describeMcp(identity.mcp),
      ])
      const text = buildLlmsTxt({
        catalogue,
        base: deps.publicBaseUrl ?? '',
        publishers: organizations.results,
        mcp,
      })
      return new Representation(text, LLMS_TYPE)
    })
    return sendRepresentation(req, reply, rep, { cacheControl: REVALIDATE })
  })
}

/**
 * The record pages' sitemap, made with each snapshot before it is served (prepared-sitemaps.ts);
 * without a public base URL, a 404 that says why.
 */
function registerSitemap(app: FastifyInstance, get: GetRoute, deps: DiscoveryDeps): void {
  const base = deps.publicBaseUrl
  const sitemaps = base === undefined ? undefined : new SnapshotSitemaps(base)
  if (sitemaps !== undefined) {
    const stop = deps.records.prepareWith((index) => sitemaps.prepare(index).catch(() => undefined))
    app.addHook('onClose', async () => void stop())
  }
  const sitemapsOf = async () => {
    const snapshot = currentSnapshot(deps.records)
    return sitemaps!.ready(snapshot) ?? (await sitemaps!.prepare(snapshot))
  }
  get(DISCOVERY_PATHS.sitemap, async (req, reply) => {
    if (base === undefined)
      throw new ApiError(
        'not_found',
        'No sitemap: its addresses must be absolute, and this instance has no PUBLIC_BASE_URL configured',
      )
    const { root } = await sitemapsOf()
    return sendRepresentation(req, reply, root, { cacheControl: REVALIDATE })
  })
  get(`${SITEMAP_PARTS_ROOT}/:part`, async (req, reply) => {
    const part = /^([1-9]\d{0,5})\.xml$/.exec((req.params as { part: string }).part)
    const rep =
      part === null || base === undefined ? undefined : (await sitemapsOf()).parts[Number(part[1]) - 1]
    if (rep === undefined)
      throw new ApiError('not_found', `No sitemap part at ${req.url.split('?', 1)[0]!.slice(0, 100)}`)
    return sendRepresentation(req, reply, rep, { cacheControl: REVALIDATE })
  })
}

/** The DCAT description, rendered once per snapshot: it carries the record count and the publication date. */
function registerDcat(get: GetRoute, deps: DiscoveryDeps): void {
  const reader = new LocalRecordReader(deps.records, deps.catalogues)
  const cache = new SnapshotPageCache()
  const base = deps.publicBaseUrl ?? ''
  get(DISCOVERY_PATHS.dcat, async (req, reply) => {
    const rep = await cache.get(currentSnapshot(deps.records), 'catalog.jsonld', async () => {
      const [catalogue, organizations] = await Promise.all([
        reader.catalogue(),
        reader.search({ kind: 'organization', limit: 50, offset: 0 }),
      ])
      const publishers = organizations.results.map((o) => ({
        id: o.id,
        title: o.title,
        url: `${base}${recordPath(o.id)}`,
      }))
      return new Representation(json(buildDcat({ catalogue, base, publishers })), DCAT_TYPE)
    })
    return sendRepresentation(req, reply, rep, { cacheControl: REVALIDATE })
  })
}
