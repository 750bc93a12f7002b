/**
 * The per-record columns of a snapshot, declared once. Each is a typed array with `width` values per
 * document (one unless said), and what the table says of it is all the rest of the code needs: the
 * types (SnapshotData, SnapshotPart), the arrays a build thread grows record by record and hands on
 * in its part (snapshot-builder.ts), the buffers transferred between threads, and the columns put
 * in shared memory for a later reload's build threads (previous-records.ts). A new column is a line
 * here, plus the code that gives it its values and the code that reads them.
 *
 * The table is read as modules load and once per build, never per record or per access: a build
 * thread fills an object of one fixed shape, and a snapshot's columns are plain properties of its
 * data (RecordIndex reads them as it always did).
 */
import { Growable, pageBacked } from './growable.js'

/** Length of a record's ETag without its quotes: 27 base64url characters of a SHA-256. */
export const ETAG_LENGTH = 27

type ElementType = ConstructorParameters<typeof Growable>[0]
type Column = {
  type: ElementType
  /** Values per document; 1 when not given. */
  width?: number
  /**
   * `record`: each build thread fills it as it adds records, and a part carries it; `finish`: made
   * once every record is in (an order, or what comes of one).
   */
  made: 'record' | 'finish'
  /** In shared memory, where a later reload's build threads read it in place (previous-records.ts). */
  shared?: true
  /** Only the build keeps it (for its messages); the snapshot does not. */
  buildOnly?: true
}

export const COLUMNS = {
  /** Record n's bytes as served: `recordLength[n]` bytes from `recordStart[n]` of arena `recordArena[n]`. */
  recordArena: { type: 'u16', made: 'record', shared: true },
  recordStart: { type: 'u32', made: 'record', shared: true },
  recordLength: { type: 'u32', made: 'record', shared: true },
  /** Record n's ETag without quotes, ASCII. */
  etags: { type: 'u8', width: ETAG_LENGTH, made: 'record', shared: true },
  /** Its kind's position in KINDS; 1 when its regions hold France; its ranking class. */
  kinds: { type: 'u8', made: 'record' },
  france: { type: 'u8', made: 'record' },
  rankClass: { type: 'u8', made: 'record' },
  /** Its id as (prefix code, high and low 32 bits of the 16 hex digits). */
  idPrefix: { type: 'u8', made: 'record', shared: true },
  idHigh: { type: 'u32', made: 'record', shared: true },
  idLow: { type: 'u32', made: 'record', shared: true },
  /** A 64-bit hash of its url, in two halves. */
  urlHigh: { type: 'u32', made: 'record' },
  urlLow: { type: 'u32', made: 'record' },
  /**
   * When it last changed (last-change.ts): the instant in ms (NaN: no date), and YYYYMMDD when that
   * is a calendar date (0 otherwise). The sitemap is made from these and its id, in another thread.
   */
  lastChange: { type: 'f64', made: 'record', shared: true },
  lastChangeDate: { type: 'u32', made: 'record', shared: true },
  /** An official rule's verified_at in ms (NaN: another kind, or no date): the catalogue counts those to re-verify. */
  verifiedAt: { type: 'f64', made: 'record' },
  /** Where it came from ("line 7"): the number, for the build's duplicate-id messages. */
  place: { type: 'u32', made: 'record', buildOnly: true },
  /** Its position in id order. */
  tieRank: { type: 'u32', made: 'finish' },
  /**
   * Documents in listing order (kind in spec order, title in French collation, id), in id order (the
   * ids' byte order, that of equal-scoring results), in the order of their url hashes. Indexed by
   * position, not by document.
   */
  order: { type: 'u32', made: 'finish' },
  byId: { type: 'u32', made: 'finish', shared: true },
  byUrl: { type: 'u32', made: 'finish' },
} as const satisfies Record<string, Column>

type Columns = typeof COLUMNS
type Name = keyof Columns
type NamesWhere<Property> = { [N in Name]: Columns[N] extends Property ? N : never }[Name]
type ArrayOf<N extends Name> = Growable<Columns[N]['type']>['values']

/** The columns a build thread fills record by record. */
export type BuiltColumnName = NamesWhere<{ made: 'record' }>
/** The columns a snapshot keeps. */
export type SnapshotColumnName = Exclude<Name, NamesWhere<{ buildOnly: true }>>
/** The columns a snapshot keeps in shared memory. */
export type SharedColumnName = NamesWhere<{ shared: true }>
export type BuiltColumns = { [N in BuiltColumnName]: ArrayOf<N> }
export type SnapshotColumns = { [N in SnapshotColumnName]: ArrayOf<N> }
/** The columns `finish` makes, once every record is in. */
export type FinishedColumns = Pick<SnapshotColumns, NamesWhere<{ made: 'finish' }>>
/** A build thread's columns as they grow. */
export type ColumnBuilders = { [N in BuiltColumnName]: Growable<Columns[N]['type']> }

const NAMES = Object.keys(COLUMNS) as Name[]
const has = (name: Name, property: keyof Column) => property in COLUMNS[name]
export const BUILT_COLUMNS = NAMES.filter((name) => COLUMNS[name].made === 'record') as BuiltColumnName[]
export const SNAPSHOT_COLUMNS = NAMES.filter((name) => !has(name, 'buildOnly')) as SnapshotColumnName[]
export const SHARED_COLUMNS = NAMES.filter((name) => has(name, 'shared')) as SharedColumnName[]

type AnyArray = Uint8Array | Uint16Array | Uint32Array | Float32Array | Float64Array
// One Growable type for the loops below, which treat every column alike (each appends its own kind).
type AnyBuilder = { append(values: AnyArray): void; done(): AnyArray }

/** Empty columns for a build thread, in the table's order (every builder's object has one shape). */
export function columnBuilders(): ColumnBuilders {
  const builders: Partial<Record<BuiltColumnName, Growable<ElementType>>> = {}
  for (const name of BUILT_COLUMNS) builders[name] = new Growable(COLUMNS[name].type)
  return builders as ColumnBuilders
}

/** The values the builders hold, trimmed to their length (Growable.done). */
export function builtColumns(builders: ColumnBuilders): BuiltColumns {
  const columns: Partial<Record<BuiltColumnName, AnyArray>> = {}
  for (const name of BUILT_COLUMNS) columns[name] = (builders[name] as AnyBuilder).done()
  return columns as BuiltColumns
}

/** Appends a later part's values to the builders', every column but those of `except` (which the caller appends as they must be). */
export function appendColumns(
  builders: ColumnBuilders,
  later: BuiltColumns,
  except: readonly BuiltColumnName[],
): void {
  for (const name of BUILT_COLUMNS)
    if (!except.includes(name)) (builders[name] as AnyBuilder).append(later[name])
}

/** A snapshot's columns: the built ones and those `finish` made, the shared ones copied to shared memory. */
export function snapshotColumns(built: BuiltColumns, finished: FinishedColumns): SnapshotColumns {
  const all: Record<string, AnyArray> = { ...built, ...finished }
  const columns: Partial<Record<SnapshotColumnName, AnyArray>> = {}
  for (const name of SNAPSHOT_COLUMNS)
    columns[name] = has(name, 'shared') ? inSharedMemory(all[name]!) : all[name]!
  return columns as SnapshotColumns
}

/** A copy of `values` in shared memory (page-backed): readable by other threads in place. */
function inSharedMemory<T extends AnyArray>(values: T): T {
  const copy = pageBacked(values.constructor as Parameters<typeof pageBacked<T>>[0], values.length, true)
  copy.set(values as never)
  return copy
}
