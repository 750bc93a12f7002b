import { describe, expect, it } from 'vitest'
import { LIMITS, type SearchEnvelope } from '../core/api/schemas.js'
import {
  envelope,
  fakeFact,
  json,
  scriptedClient,
  useScriptedServers,
} from '../../test/support/scripted-server.js'
import { PagingAnomalyError, SearchTooBroadError } from './errors.js'
import { MAX_OFFSET, PAGE_SIZE, pageAll, type PageEvent } from './paging.js'

const scripted = useScriptedServers()
const facts = (from: number, count: number) => Array.from({ length: count }, (_, i) => fakeFact(from + i))
const page = (offset: number) => `GET /api/v1/facts?po_live=1&limit=50&offset=${offset}`

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of iterable) out.push(item)
  return out
}

describe('all()', () => {
  it('pages with limit=50 until offset reaches total, de-duplicating by id', async () => {
    const server = await scripted(
      json(envelope(facts(0, 50), 103, 0)),
      // A record seen on page 1 comes again (the snapshot moved): yielded once.
      json(envelope([fakeFact(49), ...facts(50, 49)], 103, 50)),
      json(envelope(facts(99, 3), 103, 100)),
    )
    const { client } = scriptedClient(server)
    const pages: PageEvent[] = []
    const records = await collect(client.all({}, { onPage: (p) => pages.push(p) }))
    expect(records.map((r) => r.id)).toEqual(facts(0, 102).map((r) => r.id))
    expect(server.log).toEqual([page(0), page(50), page(100)])
    expect(pages).toEqual([
      { offset: 0, total: 103, received: 50 },
      { offset: 50, total: 103, received: 99 },
      { offset: 100, total: 103, received: 102 },
    ])
  })

  it('passes the filters on every page', async () => {
    const server = await scripted(json(envelope([fakeFact(1)], 1)))
    const { client } = scriptedClient(server)
    await collect(client.all({ q: 'vitesse', kind: 'fact', region: 'france' }))
    expect(server.log).toEqual([
      'GET /api/v1/facts?po_live=1&q=vitesse&kind=fact&region=france&limit=50&offset=0',
    ])
  })

  it('makes one request for an empty result', async () => {
    const server = await scripted(json(envelope([], 0)))
    const { client } = scriptedClient(server)
    expect(await collect(client.all())).toEqual([])
    expect(server.log).toEqual([page(0)])
  })

  it('throws PagingAnomalyError on an empty page before the total, after yielding what came', async () => {
    const server = await scripted(json(envelope(facts(0, 50), 120, 0)), json(envelope([], 120, 50)))
    const { client } = scriptedClient(server)
    const received: string[] = []
    const listing = (async () => {
      for await (const record of client.all()) received.push(record.id)
    })()
    await expect(listing).rejects.toBeInstanceOf(PagingAnomalyError)
    await expect(listing).rejects.toMatchObject({ offset: 50, total: 120, received: 50 })
    expect(received).toHaveLength(50)
    expect(server.log).toEqual([page(0), page(50)])
  })

  it('throws SearchTooBroadError from the first page when offset cannot reach the total', async () => {
    const server = await scripted(json(envelope(facts(0, 50), 10_051, 0)))
    const { client } = scriptedClient(server)
    const listing = collect(client.all({ q: 'permis' }))
    await expect(listing).rejects.toBeInstanceOf(SearchTooBroadError)
    await expect(listing).rejects.toThrow(
      'Search too broad: 10051 records match but paging stops at offset 10000; narrow the search (add words, --kind or --region) to list every record',
    )
    expect(server.log).toHaveLength(1)
  })

  it('retries a 429 met mid-listing and goes on', async () => {
    const server = await scripted(
      json(envelope(facts(0, 50), 60, 0)),
      {
        status: 429,
        headers: { 'retry-after': '3' },
        body: { error: { code: 'rate_limited', message: 'x' } },
      },
      json(envelope(facts(50, 10), 60, 50)),
    )
    const { client, waits } = scriptedClient(server)
    expect(await collect(client.all())).toHaveLength(60)
    expect(waits).toEqual([3000])
    expect(server.log).toEqual([page(0), page(50), page(50)])
  })
})

describe('pageAll', () => {
  it('uses the API limits', () => {
    expect(PAGE_SIZE).toBe(LIMITS.maxLimit)
    expect(MAX_OFFSET).toBe(LIMITS.maxOffset)
  })

  it('reads up to offset 10 000 and stops before passing it', async () => {
    // Short pages of 40 with a reachable total of 10 050: the page at 10 000 is read, 10 040 would pass the cap.
    const offsets: number[] = []
    const fetchPage = async (offset: number): Promise<SearchEnvelope> => {
      offsets.push(offset)
      return { results: facts(offset, 40) as SearchEnvelope['results'], total: 10_050, limit: 50, offset }
    }
    await expect(collect(pageAll(fetchPage))).rejects.toBeInstanceOf(SearchTooBroadError)
    expect(offsets.at(-1)).toBe(10_000)
  })

  it('reads every record when the total is exactly reachable', async () => {
    const fetchPage = async (offset: number): Promise<SearchEnvelope> => ({
      results: facts(offset, Math.min(50, 10_050 - offset)) as SearchEnvelope['results'],
      total: 10_050,
      limit: 50,
      offset,
    })
    expect(await collect(pageAll(fetchPage))).toHaveLength(10_050)
  })

  it('refuses a body that is not an envelope', async () => {
    const fetchPage = async () => ({ results: 'nope' }) as unknown as SearchEnvelope
    await expect(collect(pageAll(fetchPage))).rejects.toMatchObject({
      name: 'UnexpectedResponseError',
      code: 'invalid_response',
    })
  })
})
