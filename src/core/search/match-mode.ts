/**
 * How a search combines its required words (docs/contract.md "Extensions beyond the spec", `match`): `all`, the
 * contract's rule, every required word present; `best`, when no record holds every required word,
 * the records holding the most of them, ranked (best-match.ts). The REST API defaults to `all`; the
 * MCP search tools and the search page, used by agents and people, to `best`.
 */
export const MATCH_MODES = ['all', 'best'] as const
export type MatchMode = (typeof MATCH_MODES)[number]
