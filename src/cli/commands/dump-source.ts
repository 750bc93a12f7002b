/**
 * Where `dump` reads every record: the service's bulk download when its catalogue offers one on the
 * API's origin (one request, whatever the size, filtered by kind here), paging otherwise (older
 * services; 10 050 records at most).
 */
import {
  UnexpectedResponseError,
  downloadBound,
  type Catalogue,
  type PageEvent,
  type RecordsClient,
} from '../../client/index.js'
import type { Fact, Kind } from '../../core/records/record.js'

/** Progress is reported every this many records of a download (paging reports each page). */
const PROGRESS_EVERY = 500

export async function* everyRecord(
  client: RecordsClient,
  kind: Kind | undefined,
  options: {
    onPage?: (event: PageEvent) => void
    signal: AbortSignal
    /** The catalogue, when the command has just read it (while finding the API root). */
    catalogue?: Catalogue | undefined
  },
): AsyncGenerator<Fact> {
  const { onPage, signal } = options
  const catalogue = options.catalogue ?? (await client.catalogue({ signal }))
  const announced: unknown = catalogue?.records?.total
  if (!Number.isSafeInteger(announced) || (announced as number) < 0)
    throw new UnexpectedResponseError(
      200,
      'invalid_response',
      `the catalogue of ${client.baseUrl} is malformed: "records.total" must be a count of records`,
    )
  const href: unknown = catalogue.links?.download
  if (
    typeof href !== 'string' ||
    new URL(href, `${client.baseUrl}/`).origin !== new URL(client.baseUrl).origin
  ) {
    yield* client.all({ kind }, { onPage, signal })
    return
  }
  const byKind: unknown = kind === undefined ? announced : catalogue.records.by_kind?.[kind]
  const total = Number.isSafeInteger(byKind) ? (byKind as number) : 0
  let received = 0
  // The bar shows at once, at 0: the first records of a large download can take seconds to come.
  onPage?.({ offset: 0, total, received })
  // More records than the catalogue just counted (with room for a publication meanwhile) is an error, not an endless file.
  for await (const record of client.download(href, {
    signal,
    maxRecords: downloadBound(announced as number),
  })) {
    if (kind !== undefined && record.kind !== kind) continue
    received++
    if (received % PROGRESS_EVERY === 0)
      onPage?.({ offset: received, total: Math.max(total, received), received })
    yield record
  }
  onPage?.({ offset: received, total: received, received })
}
