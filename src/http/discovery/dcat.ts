/**
 * `GET /catalog.jsonld`: the dataset described in DCAT (W3C DCAT 3, with the DCAT-AP vocabularies
 * for frequency, language and file type), as JSON-LD, so public data portals (data.gouv.fr and the
 * European portal harvest DCAT) can list it: title, description, publisher, reuse terms, when it
 * changed, how often, and its two distributions, the NDJSON download and the API. Built per snapshot
 * from its catalogue; addresses are absolute on a public base URL, relative (resolved against this
 * document's address, as JSON-LD allows) without one.
 */
import type { Catalogue } from '../../core/api/schemas.js'
import { DISCOVERY_PATHS } from '../../core/api/catalogue.js'

export const DCAT_MEDIA_TYPE = 'application/ld+json'

const IANA = 'https://www.iana.org/assignments/media-types/'
const EU = 'http://publications.europa.eu/resource/authority/'

/** Prefixes only: every property keeps its vocabulary's own name, as harvesters read them. */
const DCAT_CONTEXT = {
  dcat: 'http://www.w3.org/ns/dcat#',
  dct: 'http://purl.org/dc/terms/',
  foaf: 'http://xmlns.com/foaf/0.1/',
  vcard: 'http://www.w3.org/2006/vcard/ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
} as const

export type DcatInput = {
  catalogue: Catalogue
  /** The public base URL, or '' for relative addresses. */
  base: string
  /** The organization records: who publishes the records (the first is the publisher). */
  publishers: readonly { id: string; title: string; url: string }[]
}

const fr = (text: string) => ({ '@value': text, '@language': 'fr' })
const en = (text: string) => ({ '@value': text, '@language': 'en' })
const ref = (iri: string) => ({ '@id': iri })
const dateTime = (iso: string) => ({ '@value': iso, '@type': 'xsd:dateTime' })

export function buildDcat({ catalogue, base, publishers }: DcatInput): Record<string, unknown> {
  const { links } = catalogue
  const publisher = publishers[0]
  const agent = {
    '@id': publisher === undefined ? `${base}/#editeur` : publisher.url,
    '@type': 'foaf:Agent',
    'foaf:name': publisher?.title ?? 'Éditeur des fiches de référence',
  }
  const contact = {
    '@type': 'vcard:Organization',
    'vcard:fn': agent['foaf:name'],
    'vcard:hasEmail': ref(`mailto:${catalogue.reuse.contact}`),
  }
  // Not an open licence: the reuse conditions of docs/spec.md §1 (attribution, official rules kept apart).
  const rights = {
    '@type': 'dct:RightsStatement',
    'rdfs:label': en(`${catalogue.reuse.summary} Attribution: ${catalogue.reuse.attribution}`),
  }
  const modified = dateTime(catalogue.updated_at)
  const service = {
    '@id': links.self,
    '@type': 'dcat:DataService',
    'dct:title': en(catalogue.name),
    'dct:description': en(catalogue.description),
    'dcat:endpointURL': ref(links.self),
    'dcat:endpointDescription': ref(`${links.openapi}?po_live=1`),
    'dct:conformsTo': ref('https://spec.openapis.org/oas/v3.1.0'),
    'dcat:landingPage': ref(links.docs),
    'dct:publisher': ref(agent['@id']),
    'dct:rights': rights,
    'dcat:servesDataset': ref(`${base}/#fiches`),
  }
  const distributions = [
    ...(links.download === undefined
      ? []
      : [
          {
            '@type': 'dcat:Distribution',
            'dct:title': fr('Toutes les fiches (NDJSON, une fiche par ligne)'),
            'dcat:downloadURL': ref(links.download),
            'dcat:accessURL': ref(links.download),
            'dcat:mediaType': ref(`${IANA}application/x-ndjson`),
            'dct:format': ref(`${EU}file-type/JSON`),
            'dcat:compressFormat': ref(`${IANA}application/gzip`),
            'dct:modified': modified,
            'dct:rights': rights,
          },
        ]),
    {
      '@type': 'dcat:Distribution',
      'dct:title': fr('API publique en lecture seule (JSON, OpenAPI 3.1)'),
      'dcat:accessURL': ref(links.self),
      'dcat:accessService': ref(service['@id']),
      'dcat:mediaType': ref(`${IANA}application/json`),
      'dct:format': ref(`${EU}file-type/JSON`),
      'dct:modified': modified,
      'dct:rights': rights,
    },
  ]
  const keywords = ['code de la route', 'permis de conduire', 'sécurité routière', 'auto-école']
  const dataset = {
    '@id': `${base}/#fiches`,
    '@type': 'dcat:Dataset',
    'dct:identifier': `${base}/#fiches`,
    'dct:title': fr('Fiches de référence sur la conduite et le code de la route'),
    'dct:description': [
      fr(
        `${catalogue.records.total} fiches publiques : des règles officielles du code de la route avec leurs sources ` +
          'légales et leur date de vérification, et, distinguées d’elles, des leçons, méthodes et offres qui les expliquent.',
      ),
      en(catalogue.description),
    ],
    'dct:publisher': ref(agent['@id']),
    'dcat:contactPoint': contact,
    'dct:modified': modified,
    // The records follow the publishing site's updates (docs/spec.md §9): no fixed rhythm.
    'dct:accrualPeriodicity': ref(`${EU}frequency/IRREG`),
    'dct:language': ref(`${EU}language/FRA`),
    'dct:spatial': ref(`${EU}country/FRA`),
    'dcat:keyword': keywords.map(fr),
    'dcat:landingPage': ref(`${base}/`),
    'dct:rights': rights,
    'dcat:distribution': distributions,
  }
  return {
    '@context': DCAT_CONTEXT,
    '@id': `${base}${DISCOVERY_PATHS.dcat}`,
    '@type': 'dcat:Catalog',
    'dct:title': fr('Fiches de référence — catalogue DCAT'),
    'dct:description': en(
      'DCAT description of the records: the NDJSON download and the read-only API, with their reuse terms.',
    ),
    'dct:publisher': agent,
    'dct:modified': modified,
    'dct:language': ref(`${EU}language/FRA`),
    'foaf:homepage': ref(`${base}/`),
    'dct:rights': rights,
    'dcat:dataset': [dataset],
    'dcat:service': [service],
  }
}
