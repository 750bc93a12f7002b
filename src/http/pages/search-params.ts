/**
 * The search page's address: `/recherche?q=…&kind=…&region=…&match=…&page=…`. The page matches best
 * by default (the records holding the most of the words first); `match=all` keeps only the records
 * holding every word, as the API's default does. The page is for people, so it
 * is lenient where a person's browser or a shared link adds things (unknown parameters such as
 * tracking tags are ignored, empty fields mean "any"), and clear where a value cannot be used (a 400
 * page saying which one, in French). Pages hold `PAGE_SIZE` results; the API's offset bound applies.
 */
import { z } from 'zod'
import { LIMITS } from '../../core/api/schemas.js'
import { ApiError } from '../../core/errors.js'
import { KINDS, type Kind } from '../../core/records/record.js'
import { MATCH_MODES, type MatchMode } from '../../core/search/match-mode.js'
import { parseQuery } from '../query.js'

export const SEARCH_PATH = '/recherche'
export const PAGE_SIZE = 10
/** The last page whose offset the search accepts. */
export const MAX_PAGE = Math.floor(LIMITS.maxOffset / PAGE_SIZE) + 1

export type SearchPageParams = { q?: string; kind?: Kind; region?: 'france'; match?: MatchMode; page: number }

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v)

const SearchPageSchema = z.object({
  q: z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine((q) => [...q].length <= LIMITS.maxQueryLength, {
        error: (i) =>
          `La recherche fait ${[...(i.input as string)].length} caractères ; ${LIMITS.maxQueryLength} au plus sont acceptés.`,
      })
      .refine((q) => !/\p{Cc}/u.test(q), {
        error: 'La recherche contient des caractères de contrôle ; retirez-les.',
      })
      .transform((q) => q.trim())
      .optional(),
  ),
  kind: z.preprocess(
    blankToUndefined,
    z
      .enum(KINDS, {
        error: (i) =>
          `Le type de fiche « ${String(i.input)} » n’existe pas ; choisissez-en un dans la liste.`,
      })
      .optional(),
  ),
  region: z.preprocess(
    blankToUndefined,
    z
      .enum(['france'], {
        error: (i) => `La région « ${String(i.input)} » n’est pas connue ; la seule proposée est France.`,
      })
      .optional(),
  ),
  match: z.preprocess(
    blankToUndefined,
    z
      .enum(MATCH_MODES, {
        error: (i) =>
          `Le mode « ${String(i.input)} » n’existe pas : all (tous les mots) ou best (le plus de mots).`,
      })
      .optional(),
  ),
  page: z.preprocess(
    (v) => (v === undefined || v === '' ? 1 : typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : v),
    z
      .int()
      .min(1)
      .max(MAX_PAGE, { error: `Les résultats s’arrêtent à la page ${MAX_PAGE} ; affinez la recherche.` }),
  ),
})

/** The parameters of a raw query string, or an `invalid_parameter` error in French. */
export function parseSearchPageQuery(query: string | undefined): SearchPageParams {
  let pairs: Map<string, string[]>
  try {
    pairs = parseQuery(query)
  } catch {
    throw new ApiError(
      'invalid_parameter',
      'L’adresse de la recherche est mal encodée ; relancez la recherche depuis le formulaire.',
    )
  }
  const input: Record<string, string> = {}
  for (const name of ['q', 'kind', 'region', 'match', 'page'] as const) {
    const values = pairs.get(name)
    if (values === undefined) continue
    if (values.length > 1)
      throw new ApiError(
        'invalid_parameter',
        `Le paramètre « ${name} » est donné ${values.length} fois ; donnez-le une seule fois.`,
      )
    input[name] = values[0]!
  }
  const result = SearchPageSchema.safeParse(input)
  if (result.success) return result.data
  const issue = result.error.issues[0]!
  const message =
    issue.path[0] === 'page' && issue.code !== 'too_big'
      ? `Le numéro de page doit être un nombre entier de 1 à ${MAX_PAGE}.`
      : issue.message
  throw new ApiError('invalid_parameter', message)
}

/** The canonical address of a search: defaults left out, so one search has one address. */
export function searchPath(params: Partial<SearchPageParams>): string {
  const query = new URLSearchParams()
  if (params.q !== undefined && params.q !== '') query.set('q', params.q)
  if (params.kind !== undefined) query.set('kind', params.kind)
  if (params.region !== undefined) query.set('region', params.region)
  if (params.match === 'all') query.set('match', 'all')
  if (params.page !== undefined && params.page > 1) query.set('page', String(params.page))
  const text = query.toString()
  return text === '' ? SEARCH_PATH : `${SEARCH_PATH}?${text}`
}
