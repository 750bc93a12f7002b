/**
 * What a reload's build reads of the snapshot being served, so that a record that did not change
 * stays where it is instead of being written again: the new snapshot points into the served one's
 * arenas. A reload then holds two snapshots' indexes but, for records, only what changed: without
 * this, a reload held two copies of every record (the served and the new one), 2.4 times the steady
 * memory at 1 000 000 records (docs/scale.md).
 *
 * A record is unchanged when the previous snapshot has a record with its id and its ETag (a SHA-256
 * of its bytes as served): then its bytes are those bytes. The arrays read here are the served
 * snapshot's own, in shared memory, so every build thread reads them in place, without a copy.
 *
 * Records left in an arena keep the whole arena alive. So that arenas whose records mostly changed
 * do not pile up, a reload writes the records of the emptiest arenas again (compacts them), within a
 * budget that bounds what a reload adds to memory: see `arenasToKeep`.
 */
import { ETAG_LENGTH, type SnapshotData } from './snapshot-data.js'

/** The served snapshot, as a reload's build threads read it. */
export type PreviousRecords = Pick<
  SnapshotData,
  'byId' | 'idPrefix' | 'idHigh' | 'idLow' | 'etags' | 'recordArena' | 'recordStart' | 'recordLength'
> & {
  /** How many arena numbers it uses. */
  arenaCount: number
  /** Per arena number: 1 when its records may stay where they are, 0 when they are written again. */
  keep: Uint8Array
}

/** An arena whose live records fill less than this share of it is written again when the budget allows. */
const MIN_LIVE_SHARE = 0.75
/** What a reload may write again to compact arenas, as a share of the records' bytes. */
export const COMPACTION_BUDGET = 0.2
/**
 * Arenas a reload keeps at most: each reload adds at least one (what changed), so without a bound a
 * service republished often would hold thousands of small ones. The smallest beyond are compacted.
 */
export const MAX_KEPT_ARENAS = 1_024

/**
 * Which arenas keep their records, given each arena's size and the bytes of its records still served
 * (`live`). The emptiest arenas under MIN_LIVE_SHARE are compacted first, as long as the live bytes
 * written again stay within COMPACTION_BUDGET of all live bytes; and whatever the budget, arenas
 * beyond MAX_KEPT_ARENAS are compacted (the smallest).
 */
export function arenasToKeep(size: readonly number[], live: readonly number[]): Uint8Array {
  const keep = new Uint8Array(size.length).fill(1)
  const held = size.map((_, k) => k).filter((k) => live[k]! > 0)
  for (let k = 0; k < size.length; k++) if (live[k] === 0) keep[k] = 0
  const totalLive = live.reduce((a, b) => a + b, 0)
  let budget = COMPACTION_BUDGET * totalLive
  const share = (k: number) => live[k]! / Math.max(1, size[k]!)
  for (const k of held.filter((a) => share(a) < MIN_LIVE_SHARE).sort((a, b) => share(a) - share(b))) {
    if (live[k]! > budget) break
    budget -= live[k]!
    keep[k] = 0
  }
  const kept = held.filter((k) => keep[k] === 1).sort((a, b) => live[a]! - live[b]!)
  for (const k of kept.slice(0, Math.max(0, kept.length - MAX_KEPT_ARENAS))) keep[k] = 0
  return keep
}

/** The previous snapshot as a reload reads it: its shared arrays, and the arenas it keeps. */
export function previousRecords(data: SnapshotData, arenaSizes: readonly number[]): PreviousRecords {
  const live = arenaSizes.map(() => 0)
  const { recordArena, recordLength } = data
  for (let doc = 0; doc < data.count; doc++) live[recordArena[doc]!]! += recordLength[doc]!
  const { byId, idPrefix, idHigh, idLow, etags, recordStart } = data
  return {
    byId,
    idPrefix,
    idHigh,
    idLow,
    etags,
    recordArena,
    recordStart,
    recordLength,
    arenaCount: arenaSizes.length,
    keep: arenasToKeep(arenaSizes, live),
  }
}

/**
 * The previous snapshot's document holding the record with this id and this ETag (the 27 bytes of
 * `etags` from `etagAt`), in an arena it keeps; -1 when there is none (a new or changed record, or
 * one whose arena is compacted).
 */
export function unchangedRecord(
  previous: PreviousRecords,
  prefix: number,
  high: number,
  low: number,
  etags: Uint8Array,
  etagAt: number,
): number {
  const { byId, idPrefix, idHigh, idLow } = previous
  let [from, to] = [0, byId.length]
  while (from < to) {
    const mid = (from + to) >>> 1
    const doc = byId[mid]!
    const c = idPrefix[doc]! - prefix || idHigh[doc]! - high || idLow[doc]! - low
    if (c < 0) from = mid + 1
    else if (c > 0) to = mid
    else {
      if (previous.keep[previous.recordArena[doc]!] !== 1) return -1
      const at = doc * ETAG_LENGTH
      for (let i = 0; i < ETAG_LENGTH; i++) if (previous.etags[at + i] !== etags[etagAt + i]) return -1
      return doc
    }
  }
  return -1
}
