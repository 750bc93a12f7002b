import jsonld from 'jsonld'
import { describe, expect, it } from 'vitest'
import { catalogueLinks } from '../../core/api/catalogue.js'
import { CatalogueSchema, type Catalogue } from '../../core/api/schemas.js'
import { CATALOGUE_EXAMPLE } from '../openapi-examples.js'
import { buildDcat } from './dcat.js'

const BASE = 'https://records.example.org'
const DCAT = 'http://www.w3.org/ns/dcat#'
const DCT = 'http://purl.org/dc/terms/'
const catalogue = (base?: string): Catalogue =>
  CatalogueSchema.parse({
    ...CATALOGUE_EXAMPLE,
    links: catalogueLinks({
      publicBaseUrl: base,
      requestsPerMinute: 120,
      contact: CATALOGUE_EXAMPLE.reuse.contact,
    }),
  })
const PUBLISHER = {
  id: 'brand-16395a25a8264e91',
  title: 'Code & Conduite',
  url: `${BASE}/fiches/brand-16395a25a8264e91`,
}

type Node = Record<string, { '@id'?: string; '@value'?: string; '@type'?: string }[]> & {
  '@id'?: string
  '@type'?: string[]
}

/** The description as a harvester reads it: expanded, then flattened into nodes by id. */
async function nodes(doc: Record<string, unknown>): Promise<Node[]> {
  const flat = (await jsonld.flatten(doc as jsonld.JsonLdDocument)) as unknown as Node[]
  return flat
}
const ofType = (all: Node[], type: string) => all.filter((n) => n['@type']?.includes(`${DCAT}${type}`))
const iri = (n: Node, property: string) => n[property]?.map((v) => v['@id'])
const values = (n: Node, property: string) => n[property]?.map((v) => v['@value'])

describe('buildDcat', () => {
  it('describes one catalogue with one dataset, its publisher, terms, frequency and date', async () => {
    const all = await nodes(buildDcat({ catalogue: catalogue(BASE), base: BASE, publishers: [PUBLISHER] }))
    const [cat] = ofType(all, 'Catalog')
    expect(cat?.['@id']).toBe(`${BASE}/catalog.jsonld`)
    const [dataset] = ofType(all, 'Dataset')
    expect(iri(cat!, `${DCAT}dataset`)).toEqual([dataset!['@id']])
    expect(values(dataset!, `${DCT}title`)).toEqual([
      'Fiches de référence sur la conduite et le code de la route',
    ])
    expect(iri(dataset!, `${DCT}publisher`)).toEqual([PUBLISHER.url])
    const publisher = all.find((n) => n['@id'] === PUBLISHER.url)!
    expect(values(publisher, 'http://xmlns.com/foaf/0.1/name')).toEqual(['Code & Conduite'])
    expect(iri(dataset!, `${DCT}accrualPeriodicity`)).toEqual([
      'http://publications.europa.eu/resource/authority/frequency/IRREG',
    ])
    expect(dataset![`${DCT}modified`]).toEqual([
      { '@value': CATALOGUE_EXAMPLE.updated_at, '@type': 'http://www.w3.org/2001/XMLSchema#dateTime' },
    ])
    const rights = all.find((n) => n['@id'] === iri(dataset!, `${DCT}rights`)![0])!
    expect(values(rights, 'http://www.w3.org/2000/01/rdf-schema#label')![0]).toContain(
      'if the attribution is visible and links to the record page used',
    )
  })

  it('offers the NDJSON download and the API as distributions, with their media types', async () => {
    const all = await nodes(buildDcat({ catalogue: catalogue(BASE), base: BASE, publishers: [PUBLISHER] }))
    const [dataset] = ofType(all, 'Dataset')
    const distributions = iri(dataset!, `${DCAT}distribution`)!.map((id) => all.find((n) => n['@id'] === id)!)
    expect(distributions.map((d) => iri(d, `${DCAT}accessURL`))).toEqual([
      [`${BASE}/api/v1/facts.ndjson`],
      [`${BASE}/api/v1/`],
    ])
    expect(distributions.map((d) => iri(d, `${DCAT}mediaType`))).toEqual([
      ['https://www.iana.org/assignments/media-types/application/x-ndjson'],
      ['https://www.iana.org/assignments/media-types/application/json'],
    ])
    expect(iri(distributions[0]!, `${DCAT}downloadURL`)).toEqual([`${BASE}/api/v1/facts.ndjson`])
    const [service] = ofType(all, 'DataService')
    expect(iri(distributions[1]!, `${DCAT}accessService`)).toEqual([service!['@id']])
    expect(iri(service!, `${DCAT}endpointDescription`)).toEqual([`${BASE}/api/v1/openapi.json?po_live=1`])
  })

  it('uses only the vocabularies it declares: nothing is left unexpanded', async () => {
    const doc = buildDcat({ catalogue: catalogue(BASE), base: BASE, publishers: [PUBLISHER] })
    for (const node of await nodes(doc)) {
      for (const key of Object.keys(node)) if (!key.startsWith('@')) expect(key).toMatch(/^https?:\/\//)
      for (const type of node['@type'] ?? []) expect(type).toMatch(/^https?:\/\//)
    }
  })

  it('resolves relative addresses against its own address when no base URL is configured', async () => {
    const doc = buildDcat({ catalogue: catalogue(), base: '', publishers: [] })
    const all = (await jsonld.flatten(doc as jsonld.JsonLdDocument, undefined, {
      base: 'https://host.example/catalog.jsonld',
    })) as unknown as Node[]
    const [dataset] = ofType(all, 'Dataset')
    expect(dataset!['@id']).toBe('https://host.example/#fiches')
  })
})
