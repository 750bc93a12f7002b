/**
 * How a snapshot is fingerprinted. A record is stored as the JSON text of its validated form (what
 * the API serves); its hash lets a publisher compare snapshots without reading records back; the
 * snapshot's checksum covers every record in id order, so a replica can prove it read exactly what
 * was published.
 */
import { createHash, type Hash } from 'node:crypto'
import type { Fact } from '../record.js'

/** The stored text of a record: the JSON the API serves for it. */
export const recordText = (record: Fact): string => JSON.stringify(record)

/** SHA-256 of a record's text, hex. */
export const recordHash = (text: string): string => createHash('sha256').update(text).digest('hex')

/** Bytewise order of ids (ids are ASCII): the order of the checksum, and of the database's "C" collation. */
export const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** The checksum of a snapshot, fed its records' texts in id order: SHA-256 of each text and a newline. */
export class SnapshotChecksum {
  readonly #hash: Hash = createHash('sha256')
  add(text: string): void {
    this.#hash.update(text).update('\n')
  }
  digest(): string {
    return this.#hash.digest('hex')
  }
}
