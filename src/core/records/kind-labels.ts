/**
 * Each kind's name in French, as the pages and the MCP app's record cards say it, and for the kinds
 * the core marks as explaining or selling (records/provenance.ts), the same reminder. Typed by kind,
 * so a new kind cannot be left unnamed.
 */
import type { Kind } from './record.js'

type FrenchLabel = { name: string; plural: string; note?: string }

/** Each kind's name, and for those the core marks as explaining or selling, the same reminder in French. */
export const KIND_LABELS_FR: Readonly<Record<Kind, FrenchLabel>> = {
  fact: { name: 'Règle officielle', plural: 'Règles officielles' },
  expertise: { name: 'Méthode', plural: 'Méthodes', note: 'pas une règle officielle' },
  organization: { name: 'Organisation', plural: 'Organisations' },
  offer: { name: 'Offre', plural: 'Offres', note: 'commerciale, pas une règle officielle' },
  person: { name: 'Personne', plural: 'Personnes' },
  article: { name: 'Article', plural: 'Articles', note: 'explication, pas une règle officielle' },
  lesson: { name: 'Leçon', plural: 'Leçons', note: 'explication, pas une règle officielle' },
  page: { name: 'Page', plural: 'Pages' },
  tool: { name: 'Outil', plural: 'Outils' },
}
