/**
 * The attribution line the reuse conditions ask for (docs/spec.md §1): visible, naming the record and
 * linking to the record page used. One format for the CLI, the MCP texts and the catalogue.
 */
import type { Fact } from './record.js'

export const attributionLine = (record: Pick<Fact, 'title' | 'url'>): string =>
  `Source : ${record.title} — ${record.url}`

/** The same line as a template, for the catalogue's reuse conditions. */
export const ATTRIBUTION_TEMPLATE = attributionLine({ title: '<record title>', url: '<record url>' })
