/** Random postings for the search engine's unit tests, from a seeded generator. */
import type { Postings } from '../../src/core/search/postings.js'

/**
 * Postings over `documentCount` documents, each held with probability `share` (drawn with `next`),
 * with the title and body counts `counts` gives for it: each test draws the counts its case needs.
 */
export function randomPostings(
  next: () => number,
  documentCount: number,
  share: number,
  counts: () => readonly [title: number, body: number],
): Postings {
  const docs: number[] = []
  const titleTf: number[] = []
  const bodyTf: number[] = []
  for (let doc = 0; doc < documentCount; doc++) {
    if (next() >= share) continue
    docs.push(doc)
    const [title, body] = counts()
    titleTf.push(title)
    bodyTf.push(body)
  }
  return { docs: Uint32Array.from(docs), titleTf: Uint8Array.from(titleTf), bodyTf: Uint8Array.from(bodyTf) }
}
