/**
 * The queries of the scale measurements (docs/scale.md), shared by bench/scale.ts (in-process) and
 * bench/serve-memory.ts (over HTTP), so that both measure the same mix.
 */
import type { Kind } from '../../src/core/records/record.js'

export type Query = { q?: string; kind?: Kind; region?: 'france'; limit?: number; offset?: number }

/** 50 queries: learner queries from test/relevance, the same with filters, paging, and listings without q. */
export const QUERY_MIX: Query[] = [
  ...[
    'priorité à droite|priorite a droite|vitesse sur autoroute|vitesse en ville|distance de sécurité',
    'ceinture arrière|siège auto enfant|feu rouge|sens interdit|ligne continue|zone 30|feux de brouillard',
    'pneus hiver|délit de fuite|rouler sans assurance|permis probatoire points|récupérer des points',
    "taux d'alcoolémie|telephone au volant|carrefour giratoire|rond-point|panneaux|angle mort",
    'fatigue au volant|passage à niveau|créneau|PLS|défibrillateur|permis à 17 ans|examen du code',
  ]
    .join('|')
    .split('|')
    .map((q) => ({ q })),
  { q: 'vitesse', kind: 'fact' },
  { q: 'priorité', kind: 'lesson' },
  { q: 'alcool', kind: 'expertise' },
  { q: 'permis', kind: 'article' },
  { q: 'forfait', kind: 'offer' },
  { q: 'enseignant', kind: 'person' },
  { q: 'calculateur', kind: 'tool' },
  { q: 'conduite', kind: 'page' },
  { q: 'autoroute', region: 'france' },
  { q: 'piétons cyclistes', region: 'france' },
  { q: 'conduite accompagnée', region: 'france' },
  { q: 'vitesse', limit: 50, offset: 40 },
  { q: 'points', limit: 50, offset: 500 },
  { q: 'la', limit: 10 },
  {},
  { kind: 'lesson' },
  { kind: 'fact', region: 'france' },
  { region: 'france', offset: 5000 },
  { kind: 'offer', limit: 50 },
  { kind: 'person', offset: 100 },
]

/** Broad one-word queries, no filter, first page: the cost follows the matches, so they are the slowest. */
export const BROAD_WORDS = ['la', 'conduite', 'permis', 'vitesse', 'route']
