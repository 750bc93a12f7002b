/** Highlighted segments (core/search/excerpt.ts) as page markup. */
import type { Segment } from '../../core/search/excerpt.js'
import { html, type Html } from './html.js'

/** Segments as markup: matched words in <mark>, everything escaped. */
export const marked = (parts: readonly Segment[]): Html =>
  html`${parts.map((p) => (p.match ? html`<mark>${p.text}</mark>` : p.text))}`
