/**
 * Finding the API root from what the user gave. The address a service logs at start is its origin
 * (`http://127.0.0.1:8080`), while the client reads the versioned root (`…/api/v1`): an address that
 * does not end in `/api/v1` is looked up, by asking for the catalogue there, and refused in plain
 * words when no catalogue answers.
 */
import {
  RateLimitError,
  RecordsApiError,
  RecordsClient,
  UnavailableError,
  type Catalogue,
  type RecordsClientOptions,
} from '../client/index.js'
import { UsageError } from './args.js'

/** The path every API root ends with (docs/spec.md §9). */
const API_PATH = '/api/v1'

const EXAMPLE = 'http://127.0.0.1:8080/api/v1'

/** Whether a JSON body looks like the catalogue (and not, say, a web page's data or another API). */
function isCatalogue(body: unknown): boolean {
  const c = body as { links?: { self?: unknown }; records?: { total?: unknown } } | null
  return (
    typeof c === 'object' &&
    c !== null &&
    typeof c.links?.self === 'string' &&
    typeof c.records?.total === 'number'
  )
}

/**
 * The API root to read, without a trailing slash. `given` ending in `/api/v1` is used as is; another
 * address is tried as a prefix (`given/api/v1/`) and then as a root itself (a proxy may map one), and
 * the first that answers a catalogue wins. Connection errors and rate limits propagate unchanged.
 * Throws `UsageError` when nothing there answers a catalogue.
 */
export async function resolveApiRoot(
  given: string,
  from: string,
  options: Omit<RecordsClientOptions, 'baseUrl'> = {},
): Promise<string> {
  return (await findApiRoot(given, from, options)).root
}

/**
 * `resolveApiRoot`, with the catalogue it read when it had to look (undefined for an address ending
 * in `/api/v1`): a command that reads the catalogue next uses this one instead of asking again.
 */
export async function findApiRoot(
  given: string,
  from: string,
  options: Omit<RecordsClientOptions, 'baseUrl'> = {},
): Promise<{ root: string; catalogue?: Catalogue }> {
  let url: URL
  try {
    url = new URL(given)
  } catch {
    throw new UsageError(`${from} "${given}" is not a URL; give the API root, e.g. ${EXAMPLE}`)
  }
  const client = (base: string) => {
    try {
      return new RecordsClient({ ...options, baseUrl: base })
    } catch (err) {
      throw new UsageError(
        `${from} "${given}" is not a usable API root: ${(err as Error).message.replace(/^RecordsClient: /, '')}`,
      )
    }
  }
  const path = url.pathname.replace(/\/+$/, '')
  if (path.endsWith(API_PATH)) return { root: client(given).baseUrl }
  const tried: string[] = []
  for (const candidate of [`${url.origin}${path}${API_PATH}`, `${url.origin}${path}`]) {
    const reader = client(candidate)
    try {
      const catalogue = await reader.catalogue()
      if (isCatalogue(catalogue)) return { root: reader.baseUrl, catalogue }
      tried.push(`${reader.baseUrl}/ is not the catalogue`)
    } catch (err) {
      // A wait or an outage says nothing about the address: those go up as they are.
      if (
        !(err instanceof RecordsApiError) ||
        err instanceof RateLimitError ||
        err instanceof UnavailableError
      )
        throw err
      tried.push(
        `${reader.baseUrl}/ answered ${err.status === 200 ? 'something that is not JSON' : err.status}`,
      )
    }
  }
  throw new UsageError(
    `${from} "${given}": no records API there (${tried.join('; ')}). ` +
      `Give the API root, the address ending in ${API_PATH}, e.g. ${EXAMPLE}`,
  )
}
