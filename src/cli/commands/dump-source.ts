/**
 * Where `dump` reads every record: the service's bulk download when its catalogue offers one on the
 * API's origin (one request, whatever the size, filtered by kind here), paging otherwise (older
 * services; 10 050 records at most).
 */
import type { Catalogue, PageEvent, RecordsClient } from '../../client/index.js'
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
  const href = catalogue.links.download
  if (href === undefined || new URL(href, `${client.baseUrl}/`).origin !== new URL(client.baseUrl).origin) {
    yield* client.all({ kind }, { onPage, signal })
    return
  }
  const total = kind === undefined ? catalogue.records.total : catalogue.records.by_kind[kind]
  let received = 0
  // The bar shows at once, at 0: the first records of a large download can take seconds to come.
  onPage?.({ offset: 0, total, received })
  for await (const record of client.download(href, { signal })) {
    if (kind !== undefined && record.kind !== kind) continue
    received++
    if (received % PROGRESS_EVERY === 0)
      onPage?.({ offset: received, total: Math.max(total, received), received })
    yield record
  }
  onPage?.({ offset: received, total: received, received })
}
