/** The document's examples are the service's own answers: a bundled record, schema-valid bodies. */
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { catalogueLinks } from '../core/api/catalogue.js'
import { currentSnapshot } from '../core/api/reader.js'
import { CatalogueSchema, ErrorBodySchema, SearchEnvelopeSchema } from '../core/api/schemas.js'
import { LiveRecords } from '../core/snapshots/live-records.js'
import { FactSchema } from '../core/records/record.js'
import {
  CATALOGUE_EXAMPLE,
  ERROR_EXAMPLES,
  RECORD_EXAMPLE,
  SEARCH_EXAMPLE,
  SEARCH_NO_MATCH_EXAMPLE,
} from './openapi-examples.js'
import { fragmentRefusal } from './front-door.js'

const sample = JSON.parse(readFileSync(new URL('../../data/records.json', import.meta.url), 'utf8')) as {
  records: unknown[]
}

it('shows a record of the bundled sample, exactly', () => {
  expect(sample.records.find((r) => (r as { id: string }).id === RECORD_EXAMPLE.id)).toEqual(RECORD_EXAMPLE)
  expect(FactSchema.parse(RECORD_EXAMPLE)).toEqual(RECORD_EXAMPLE)
})

it('gives bodies the schemas accept', () => {
  expect(() => SearchEnvelopeSchema.parse(SEARCH_EXAMPLE)).not.toThrow()
  expect(() => SearchEnvelopeSchema.parse(SEARCH_NO_MATCH_EXAMPLE)).not.toThrow()
  expect(() => CatalogueSchema.parse(CATALOGUE_EXAMPLE)).not.toThrow()
  for (const [status, examples] of Object.entries(ERROR_EXAMPLES)) {
    for (const [name, example] of Object.entries(examples))
      expect(() => ErrorBodySchema.parse(example.value), `${status} ${name}`).not.toThrow()
  }
})

it('words the not-loaded refusal as the core does', () => {
  const { error } = ERROR_EXAMPLES['503']!.notLoaded!.value as { error: { code: string; message: string } }
  expect(() => currentSnapshot(new LiveRecords())).toThrow(error.message)
  expect(error.code).toBe('unavailable')
})

it('links what a service with the default settings links', () => {
  expect(CATALOGUE_EXAMPLE.links).toEqual(
    catalogueLinks({ requestsPerMinute: 120, contact: CATALOGUE_EXAMPLE.reuse.contact, mcpPath: '/mcp' }),
  )
})

it('words the fragment refusal as the front door does', () => {
  const { error } = ERROR_EXAMPLES['400']!.fragment!.value as { error: { code: string; message: string } }
  expect(error).toEqual({ code: fragmentRefusal().code, message: fragmentRefusal().message })
})
