/**
 * The change feed's model: what each publication added, changed and removed, for the publications a
 * source keeps, and how a client reads it from a point it knows (a publication id, a time, a cursor).
 *
 * A history starts with a base: the oldest publication kept, whose own changes are not known (what
 * came before it is gone). A client may start from the base or any later publication; from anything
 * older it must download the snapshot again (`gone`, 410). Publication ids are the source's own, so
 * every replica of one source answers the same: PostgreSQL's publication numbers, or a file
 * snapshot's content version (equal records, equal id: a client whose copy holds those records may
 * follow from the latest publication that had them).
 */
import { ApiError } from '../errors.js'

export const CHANGE_KINDS = ['added', 'changed', 'removed'] as const
export type ChangeKind = (typeof CHANGE_KINDS)[number]

/** One record's change in one publication; `modifiedAt` is the record's own (the removed version's for a removal). */
export type RecordChange = { id: string; change: ChangeKind; modifiedAt: string | null }

/** One publication: its id, when it was published, and its changes in id order. */
export type PublicationChanges = {
  publication: string
  publishedAt: string
  changes: readonly RecordChange[]
}

/** A source's kept history, oldest first; the first publication is the base (its changes are not served). */
export type ChangeHistory = {
  publications: readonly PublicationChanges[]
  /** SHA-256 (hex) of the newest publication's records in id order, each JSON text followed by "\n". */
  checksum: string
  /** Records in the newest publication. */
  records: number
}

/** Where a read starts: after a publication, after a time, or at a cursor a previous page gave. */
export type ChangesFrom =
  { since: { publication: string } | { time: string } } | { cursor: { publication: string; offset: number } }

export type ChangePage = {
  latest: PublicationChanges
  /** The changes of this page, each with the publication it belongs to. */
  changes: { publication: PublicationChanges; change: RecordChange }[]
  /** Where the next page starts, undefined on the last page. */
  next: { publication: string; offset: number } | undefined
}

const TOO_OLD_ADVICE =
  'download the whole snapshot again (GET /api/v1/facts.ndjson, whose X-Publication-Id header says where to follow from) and follow the feed from there'

/** The position (publication index, change offset) a read starts at, or a `gone` error. */
function startOf(history: ChangeHistory, from: ChangesFrom): [number, number] {
  const { publications } = history
  const base = publications[0]!
  if ('cursor' in from) {
    const at = lastIndexOf(publications, from.cursor.publication)
    if (at <= 0)
      throw new ApiError(
        'gone',
        `Query parameter "cursor" points into publication "${from.cursor.publication}", which is no longer kept; ${TOO_OLD_ADVICE}`,
      )
    return [at, from.cursor.offset]
  }
  const { since } = from
  if ('publication' in since) {
    // The latest occurrence: a file snapshot's id repeats when its records come back, and from then on nothing differs.
    const at = lastIndexOf(publications, since.publication)
    if (at < 0)
      throw new ApiError(
        'gone',
        `Query parameter "since": publication "${since.publication}" is not in the kept history (the oldest kept is "${base.publication}", published ${base.publishedAt}); ${TOO_OLD_ADVICE}`,
      )
    return [at + 1, 0]
  }
  const time = Date.parse(since.time)
  if (time < Date.parse(base.publishedAt))
    throw new ApiError(
      'gone',
      `Query parameter "since": ${since.time} is older than the kept history, which starts at publication "${base.publication}", published ${base.publishedAt}; ${TOO_OLD_ADVICE}`,
    )
  const at = publications.findIndex((p) => Date.parse(p.publishedAt) > time)
  return [at < 0 ? publications.length : at, 0]
}

function lastIndexOf(publications: readonly PublicationChanges[], id: string): number {
  for (let i = publications.length - 1; i >= 0; i--) if (publications[i]!.publication === id) return i
  return -1
}

/** Up to `limit` changes from `from`, in publication order then id order; removals included. */
export function readChanges(history: ChangeHistory, from: ChangesFrom, limit: number): ChangePage {
  const { publications } = history
  let [index, offset] = startOf(history, from)
  const changes: ChangePage['changes'] = []
  while (index < publications.length && changes.length < limit) {
    const publication = publications[index]!
    const taken = publication.changes.slice(offset, offset + limit - changes.length)
    for (const change of taken) changes.push({ publication, change })
    offset += taken.length
    if (offset >= publication.changes.length) [index, offset] = [index + 1, 0]
  }
  // A page that ends exactly at a publication's end still points at the next one, if any has changes left.
  while (index < publications.length && offset >= publications[index]!.changes.length)
    [index, offset] = [index + 1, 0]
  const next =
    index < publications.length ? { publication: publications[index]!.publication, offset } : undefined
  return { latest: publications[publications.length - 1]!, changes, next }
}
