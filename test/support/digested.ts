/**
 * Large typed arrays (a snapshot's columns, an index's postings) made cheap to compare: Vitest's
 * toEqual walks them element by element, about a second per snapshot of the sample. Each becomes its
 * type, its length and a digest of its bytes; what holds them keeps its shape, so a failing toEqual
 * still names the column that differs.
 */
import { createHash } from 'node:crypto'

export function digested(value: unknown): unknown {
  if (ArrayBuffer.isView(value)) {
    const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
    const length = 'length' in value ? (value.length as number) : value.byteLength
    return `${value.constructor.name}(${length}) ${createHash('sha256').update(bytes).digest('hex')}`
  }
  if (Array.isArray(value)) return value.map(digested)
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, digested(v)]))
  return value
}
