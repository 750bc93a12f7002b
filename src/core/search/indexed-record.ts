import type { Fact } from '../records/record.js'

/** One record of a snapshot: its bytes as served and its ETag; its object parsed on first use. */
export class IndexedRecord {
  #record: Fact | undefined
  constructor(
    /** Its number in the snapshot. */
    readonly doc: number,
    /** Its JSON as served, UTF-8: a view into the snapshot's buffer, sent as it is. */
    readonly bytes: Buffer,
    /** Strong ETag of `bytes`, quoted. */
    readonly etag: string,
  ) {}

  get record(): Fact {
    return (this.#record ??= JSON.parse(this.bytes.toString('utf8')) as Fact)
  }
}
