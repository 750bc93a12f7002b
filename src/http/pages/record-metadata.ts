/**
 * What a record page tells machines about the record, so search engines and citation tools read more
 * than plain HTML: schema.org JSON-LD, Google Scholar's `citation_*` (Highwire) tags, Dublin Core
 * tags, and the citation a reader copies (a line of text and CSL-JSON, which Zotero and citeproc read).
 *
 * A record is described as what it is: an official rule is an `Article` *about* the rule, whose
 * `isBasedOn` names the official texts (those are `Legislation`); the record itself is never
 * declared legislation — only the official text is the law (docs/spec.md §1). The record's address
 * is its original page (`url`), the page the reuse conditions ask to link.
 */
import type { Fact, Kind } from '../../core/records/record.js'
import { html, trusted, type Html } from './html.js'
import { KIND_LABELS_FR } from './labels.js'

/** The site's name in citations. */
export const SITE_NAME = 'Fiches de référence'

/** Who publishes the records, named in every description and citation. */
export type Publisher = { name: string; url?: string }

type JsonObject = { [key: string]: unknown }

/** Each kind as schema.org names it. */
const SCHEMA_TYPES: Readonly<Record<Kind, string>> = {
  fact: 'Article',
  expertise: 'Article',
  article: 'Article',
  lesson: 'LearningResource',
  page: 'WebPage',
  tool: 'WebPage',
  offer: 'Offer',
  organization: 'Organization',
  person: 'Person',
}
const CREATIVE_WORKS = new Set(['Article', 'LearningResource', 'WebPage'])

export const schemaTypeOf = (kind: Kind): string => SCHEMA_TYPES[kind] ?? 'CreativeWork'

/** The calendar date of a date or date-time, in UTC; undefined when it is no date. */
function calendarDate(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const time = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value)
  return Number.isNaN(time) ? undefined : new Date(time).toISOString().slice(0, 10)
}

/** The record's own date for a citation: when it was last modified, or else last verified. */
const citationDate = (record: Fact): string | undefined =>
  calendarDate(record.modified_at) ?? calendarDate(record.verified_at)

const dropUndefined = (o: JsonObject): JsonObject =>
  Object.fromEntries(
    Object.entries(o).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)),
  )

/** The record in schema.org terms, as one JSON-LD object. */
export function recordJsonLd(record: Fact, publisher: Publisher): JsonObject {
  const type = schemaTypeOf(record.kind)
  const org = dropUndefined({ '@type': 'Organization', name: publisher.name, url: publisher.url })
  const common = {
    '@context': 'https://schema.org',
    '@type': type,
    '@id': record.url,
    url: record.url,
    name: record.title,
    description: record.description,
    identifier: record.id,
  }
  if (type === 'Offer') {
    const offer = record.offer_data
    return dropUndefined({
      ...common,
      price: offer?.price,
      priceCurrency: offer?.price_currency,
      validFrom: offer?.valid_from,
      validThrough: offer?.valid_through,
      offeredBy: org,
    })
  }
  if (type === 'Organization') {
    const data = record.organization_data
    return dropUndefined({
      ...common,
      legalName: data?.legal_name,
      address: typeof data?.address === 'string' ? data.address : undefined,
      telephone: data?.telephone,
      sameAs: Array.isArray(data?.same_as) ? data.same_as : undefined,
    })
  }
  if (type === 'Person') {
    const data = record.person_data
    return dropUndefined({
      ...common,
      jobTitle: data?.job_title,
      worksFor: data?.affiliation === undefined ? org : { '@type': 'Organization', name: data.affiliation },
    })
  }
  const official = record.sources.filter((s) => s.type === 'official')
  const others = record.sources.filter((s) => s.type !== 'official')
  return dropUndefined({
    ...common,
    ...(CREATIVE_WORKS.has(type) ? { headline: record.title } : {}),
    inLanguage: 'fr',
    genre: KIND_LABELS_FR[record.kind]?.name,
    dateModified: record.modified_at,
    publisher: org,
    author: org,
    // The official texts the record rests on: these are the legislation, the record only explains them.
    isBasedOn: official.map((s) => ({ '@type': 'Legislation', name: s.label, url: s.url })),
    citation: [
      ...others.map((s) => ({ '@type': 'CreativeWork', name: s.label, url: s.url })),
      ...(record.bibliography ?? []),
    ],
    image: record.image,
    isPartOf: { '@type': 'WebSite', name: SITE_NAME, publisher: org },
  })
}

/**
 * JSON for a `<script type="application/ld+json">`: the HTML parser ends the script at `</script`
 * whatever the JSON says, and a record is free text, so `<`, `>` and `&` are written as JSON escapes
 * (the same string to a JSON parser), as are U+2028 and U+2029 for script engines that read the
 * block as JavaScript.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

/** The record as one CSL-JSON item (citeproc, Zotero, Pandoc). */
export function recordCsl(record: Fact, publisher: Publisher): JsonObject {
  const date = citationDate(record)
  return dropUndefined({
    id: record.id,
    type: 'webpage',
    title: record.title,
    'container-title': SITE_NAME,
    publisher: publisher.name,
    author: [{ literal: publisher.name }],
    issued: date === undefined ? undefined : { 'date-parts': [date.split('-').map(Number)] },
    URL: record.url,
    language: 'fr',
    genre: KIND_LABELS_FR[record.kind]?.name,
    abstract: record.description,
  })
}

/** "Code & Conduite, « Titre », Fiches de référence, 15 septembre 2026. https://…" */
export function citationText(
  record: Fact,
  publisher: Publisher,
  frenchDate: (iso: string) => string,
): string {
  const date = citationDate(record)
  return `${publisher.name}, « ${record.title} », ${SITE_NAME}${date === undefined ? '' : `, ${frenchDate(date)}`}. ${record.url}`
}

/** The `<head>` tags: JSON-LD, Highwire `citation_*` and Dublin Core. */
export function recordHeadTags(record: Fact, publisher: Publisher): Html {
  const date = citationDate(record)
  const meta = (name: string, content: string | undefined) =>
    content === undefined ? '' : html`<meta name="${name}" content="${content}">`
  return html`${meta('citation_title', record.title)}
${meta('citation_author', publisher.name)}
${meta('citation_publisher', publisher.name)}
${meta('citation_publication_date', date?.replace(/-/g, '/'))}
${meta('citation_public_url', record.url)}
${meta('citation_language', 'fr')}
<link rel="schema.DC" href="http://purl.org/dc/elements/1.1/">
${meta('DC.title', record.title)}
${meta('DC.publisher', publisher.name)}
${meta('DC.date', date)}
${meta('DC.type', 'Text')}
${meta('DC.language', 'fr')}
${meta('DC.identifier', record.url)}
<script type="application/ld+json">${trusted(jsonForScript(recordJsonLd(record, publisher)))}</script>`
}
