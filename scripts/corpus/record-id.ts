/**
 * Ids of generated records: the kind's prefix (docs/contract.md "Record fields left open") and 16 hex digits computed from
 * the record's sequence number under a key derived from the seed.
 *
 * Why a Feistel permutation rather than a hash such as sha256(seed:n): truncated to 64 bits, a hash
 * makes collisions unlikely but not impossible, and a collision would make the file fail to load
 * ("duplicate id"). A Feistel network is a bijection on 64-bit values whatever its round function,
 * so distinct sequence numbers always give distinct ids, at any corpus size, with no set to remember.
 */
import { ID_PREFIX_BY_KIND, type Kind } from '../../src/core/records/record.js'
import type { State128 } from './prng.js'

/** murmur3's 32-bit finaliser: the Feistel round function (any function would keep the bijection). */
function fmix32(x: number): number {
  x ^= x >>> 16
  x = Math.imul(x, 0x85ebca6b)
  x ^= x >>> 13
  x = Math.imul(x, 0xc2b2ae35)
  x ^= x >>> 16
  return x >>> 0
}

/** The 64-bit sequence number `n` (0 ≤ n < 2^53) permuted under `key`, as 16 lowercase hex digits. */
export function sequenceHex(n: number, key: State128): string {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new Error(`corpus: sequence number must be a safe non-negative integer, got ${n}`)
  let left = Math.floor(n / 2 ** 32) >>> 0
  let right = n >>> 0
  for (const k of key) {
    const next = (left ^ fmix32((right ^ k) >>> 0)) >>> 0
    left = right
    right = next
  }
  return left.toString(16).padStart(8, '0') + right.toString(16).padStart(8, '0')
}

/** The id of generated record `n` of the given kind, e.g. "fait-3f2a9c1d4e5b6a70". */
export function recordId(kind: Kind, n: number, key: State128): string {
  return ID_PREFIX_BY_KIND[kind] + sequenceHex(n, key)
}
