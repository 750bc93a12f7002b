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

/**
 * Long queries of eight significant words or so, as an assistant sends them (issue 27): timed with
 * `match=best` and, as the baseline of the same run, with `match=all`. Some hold a word no record
 * holds (a name, a made-up word), so that no record holds them all and best match ranks by coverage.
 */
export const LONG_QUERIES: string[] = [
  'limitation vitesse autoroute jeune conducteur permis probatoire pluie',
  'amende stationnement trottoir piste cyclable points retrait permis',
  'taux alcool volant jeune conducteur sanction permis suspension',
  'priorité droite intersection carrefour panneau cédez passage véhicule',
  'enfant siège ceinture sécurité arrière voiture obligatoire âge',
  'téléphone main volant oreillettes amende points conducteur interdit',
  'pneus hiver chaînes montagne neige verglas équipement obligation',
  'examen code route épreuve pratique inscription candidat résultat délai',
  'vitesse autoroute pluie conducteur permis probatoire zorglub nuit',
  'mon fils de seize ans peut-il conduire un scooter électrique à Lyon sans casque',
]
