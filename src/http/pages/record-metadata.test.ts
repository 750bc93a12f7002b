import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Fact } from '../../core/records/record.js'
import {
  citationText,
  jsonForScript,
  recordCsl,
  recordHeadTags,
  recordJsonLd,
  schemaTypeOf,
} from './record-metadata.js'

const SAMPLE = (
  JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as {
    records: Fact[]
  }
).records
const PUBLISHER = { name: 'Code & Conduite', url: 'https://code-et-conduite.example/' }
const RULE: Fact = {
  id: 'fait-0123456789abcdef',
  kind: 'fact',
  title: 'Vitesse </script><script>alert(1)</script> \u2028 & co',
  text: 'Texte.',
  url: 'https://code-et-conduite.example/faits/vitesse',
  regions: ['France'],
  verified_at: '2026-09-15',
  modified_at: '2026-10-01T08:00:00Z',
  sources: [
    {
      type: 'official',
      label: 'Code de la route, article R413-2',
      url: 'https://www.legifrance.gouv.fr/codes/article_lc/LEGIARTI000042240048/',
    },
    { type: 'source', label: 'Sécurité routière', url: 'https://www.securite-routiere.gouv.fr/' },
  ],
}
/** The JSON-LD block of a head, read back as a browser's JSON parser would. */
const jsonLdOf = (head: string) =>
  JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(head)![1]!) as Record<
    string,
    unknown
  >

describe('recordJsonLd', () => {
  it('describes a rule as an Article based on its official texts, never as legislation itself', () => {
    const ld = recordJsonLd(RULE, PUBLISHER)
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Article',
      '@id': RULE.url,
      url: RULE.url,
      name: RULE.title,
      dateModified: RULE.modified_at,
      publisher: { '@type': 'Organization', name: 'Code & Conduite', url: PUBLISHER.url },
      isBasedOn: [{ '@type': 'Legislation', name: RULE.sources[0]!.label, url: RULE.sources[0]!.url }],
      citation: [{ '@type': 'CreativeWork', name: 'Sécurité routière', url: RULE.sources[1]!.url }],
    })
  })

  it('gives every kind of the sample a fitting type, none of them Legislation', () => {
    const types = new Set(SAMPLE.map((r) => recordJsonLd(r, PUBLISHER)['@type']))
    expect([...types].sort()).toEqual([
      'Article',
      'LearningResource',
      'Offer',
      'Organization',
      'Person',
      'WebPage',
    ])
    expect(schemaTypeOf('lesson')).toBe('LearningResource')
    expect(schemaTypeOf('offer')).toBe('Offer')
  })
})

describe('jsonForScript', () => {
  it('cannot close the script, and reads back as the same value', () => {
    const text = jsonForScript(recordJsonLd(RULE, PUBLISHER))
    expect(text).not.toMatch(/[<>&\u2028\u2029]/)
    expect(JSON.parse(text)).toEqual(recordJsonLd(RULE, PUBLISHER))
  })

  it('keeps a hostile title inside one JSON-LD block of the head', () => {
    const head = recordHeadTags(RULE, PUBLISHER).value
    expect(head.match(/<script/g)).toHaveLength(1)
    expect(jsonLdOf(head)['name']).toBe(RULE.title)
    expect(head).toContain('<meta name="citation_title" content="Vitesse &lt;/script&gt;')
  })
})

describe('citation tags and formats', () => {
  it('writes the Highwire and Dublin Core tags Google Scholar and Zotero read', () => {
    const head = recordHeadTags(RULE, PUBLISHER).value
    expect(head).toContain('<meta name="citation_publication_date" content="2026/10/01">')
    expect(head).toContain('<meta name="citation_author" content="Code &amp; Conduite">')
    expect(head).toContain(`<meta name="citation_public_url" content="${RULE.url}">`)
    expect(head).toContain('<meta name="DC.date" content="2026-10-01">')
    expect(head).toContain(`<meta name="DC.identifier" content="${RULE.url}">`)
  })

  it('gives one CSL-JSON item and a text citation naming the publisher, title, date and address', () => {
    expect(recordCsl(RULE, PUBLISHER)).toEqual({
      id: RULE.id,
      type: 'webpage',
      title: RULE.title,
      'container-title': 'Fiches de référence',
      publisher: 'Code & Conduite',
      author: [{ literal: 'Code & Conduite' }],
      issued: { 'date-parts': [[2026, 10, 1]] },
      URL: RULE.url,
      language: 'fr',
      genre: 'Règle officielle',
    })
    expect(citationText({ ...RULE, title: 'Vitesse' }, PUBLISHER, (d) => `le ${d}`)).toBe(
      `Code & Conduite, « Vitesse », Fiches de référence, le 2026-10-01. ${RULE.url}`,
    )
    const undated = { ...RULE, modified_at: undefined, verified_at: undefined }
    expect(recordCsl(undated, PUBLISHER)).not.toHaveProperty('issued')
  })
})
