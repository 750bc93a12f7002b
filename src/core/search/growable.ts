/**
 * A typed array that grows in place: its memory is a resizable ArrayBuffer, reserved up to a bound
 * and committed as it fills, so growing never copies and never holds the old and the new array at
 * once (a doubling copy would, for the largest arrays of a snapshot build). `done()` trims it to its
 * length; the buffer can then be transferred to another thread without a copy.
 */
type TypedArrayOf<T> = T extends 'u8'
  ? Uint8Array
  : T extends 'u16'
    ? Uint16Array
    : T extends 'u32'
      ? Uint32Array
      : T extends 'f32'
        ? Float32Array
        : Float64Array
type Kind = 'u8' | 'u16' | 'u32' | 'f32' | 'f64'

const CONSTRUCTORS = {
  u8: Uint8Array,
  u16: Uint16Array,
  u32: Uint32Array,
  f32: Float32Array,
  f64: Float64Array,
} as const
/** The most an ArrayBuffer may reserve on Node 20 (4 GiB). */
const MAX_RESERVED_BYTES = 2 ** 32

/**
 * Past this size an array grows by this much at a time, not by doubling. Growing in place never
 * copies, so doubling buys nothing; and V8 zeroes what a resizable buffer gives back when it shrinks
 * (`done()`), touching every page of the slack: a 64 MiB arena doubled to 128 MiB faulted in and
 * zeroed 64 MiB it never used (a page fault costs several microseconds on a virtual machine). A
 * step bounds that to 1 MiB an array.
 */
export const GROWTH_STEP_BYTES = 1 << 20

export class Growable<K extends Kind> {
  readonly #buffer: ArrayBuffer
  readonly #bytesPer: number
  #view: TypedArrayOf<K>
  length = 0

  constructor(
    readonly kind: K,
    maxLength = Math.floor(MAX_RESERVED_BYTES / CONSTRUCTORS[kind].BYTES_PER_ELEMENT),
  ) {
    this.#bytesPer = CONSTRUCTORS[kind].BYTES_PER_ELEMENT
    this.#buffer = new ArrayBuffer(0, { maxByteLength: maxLength * this.#bytesPer })
    // A length-tracking view: it follows the buffer as it is resized.
    this.#view = new CONSTRUCTORS[kind](this.#buffer) as TypedArrayOf<K>
  }

  /** The values so far (a view: valid until the next push). */
  get values(): TypedArrayOf<K> {
    return this.#view
  }

  /** Makes room for `count` more values. */
  reserve(count: number): void {
    const needed = (this.length + count) * this.#bytesPer
    if (needed <= this.#buffer.byteLength) return
    if (needed > this.#buffer.maxByteLength)
      throw new RangeError(`more than ${this.#buffer.maxByteLength} bytes of ${this.kind} values`)
    const current = this.#buffer.byteLength
    const next = Math.max(needed, Math.min(current * 2, current + GROWTH_STEP_BYTES), 4096)
    this.#buffer.resize(Math.min(this.#buffer.maxByteLength, next))
  }

  push(value: number): void {
    if (this.length * this.#bytesPer === this.#buffer.byteLength) this.reserve(1)
    this.#view[this.length++] = value
  }

  /** Appends every value of `values` (another part's array of the same kind). */
  append(values: TypedArrayOf<K>): void {
    this.reserve(values.length)
    this.#view.set(values as never, this.length)
    this.length += values.length
  }

  /** The values so far, without trimming (a view: valid until the next push). */
  filled(): TypedArrayOf<K> {
    return this.#view.subarray(0, this.length) as TypedArrayOf<K>
  }

  /**
   * Empties the array and keeps its memory for the values that follow (a log refilled chunk after
   * chunk): its pages stay mapped, so refilling them costs no page faults.
   */
  clear(): void {
    this.length = 0
  }

  /** Frees the memory now (a build's scratch arrays), rather than when the buffer is collected. */
  release(): void {
    this.#buffer.resize(0)
    this.length = 0
  }

  /** The values, trimmed to their length (the buffer keeps its reservation but no more memory). */
  done(): TypedArrayOf<K> {
    this.#buffer.resize(this.length * this.#bytesPer)
    return this.#view
  }
}

/** A copy of a small typed array with twice the room (per-word postings, which are many and mostly short). */
export function grown<T extends Uint32Array | Int32Array | Uint16Array | Uint8Array>(values: T): T {
  const next = new (values.constructor as new (length: number) => T)(values.length * 2)
  next.set(values)
  return next
}

type Constructor<T> = {
  new (buffer: ArrayBufferLike, byteOffset?: number, length?: number): T
  BYTES_PER_ELEMENT: number
}

/**
 * A zeroed typed array of `length` whose memory V8 maps from the system itself (a resizable buffer
 * reserves pages), not from malloc; in shared memory if `shared`. A snapshot's large arrays are made
 * so: malloc (glibc) keeps what a build thread allocated in that thread's arena once it is freed, so
 * a reload that let go of the previous snapshot's arrays left them resident (280 MiB more at
 * 1 000 000 records after one reload); pages go back to the system as soon as the array is collected.
 */
export function pageBacked<T>(type: Constructor<T>, length: number, shared = false): T {
  const bytes = length * type.BYTES_PER_ELEMENT
  const buffer = shared
    ? new SharedArrayBuffer(bytes, { maxByteLength: bytes })
    : new ArrayBuffer(bytes, { maxByteLength: bytes })
  return new type(buffer, 0, length)
}
