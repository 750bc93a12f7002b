/**
 * Typo correction for query words that match nothing in the index: the closest indexed word within
 * an edit distance bounded by the word's length, or two indexed words run together ("autoecole").
 *
 * The distance is written here rather than taken from a library (fastest-levenshtein,
 * damerau-levenshtein): the search needs transpositions ("vitsese") counted as one edit, and an early
 * stop as soon as the bound is passed, so scanning the vocabulary of a large corpus stays cheap;
 * the libraries compute the whole matrix, and the fastest counts a transposition as two edits.
 */

/**
 * Edits allowed for a word of `length` letters: none up to 3 ("bus", "feu"), 1 up to 7, 2 from 8
 * ("otoroute", "telefone"). Two edits on shorter words turned "mariage" into "marquage" and
 * "ebriete" into "empiète", for no gain on the relevance table.
 */
export function maxEdits(length: number): number {
  return length <= 3 ? 0 : length <= 7 ? 1 : 2
}

/**
 * Optimal string alignment distance (insertions, deletions, substitutions and adjacent
 * transpositions, each 1) between `a` and `b`, or `bound + 1` as soon as it must exceed `bound`.
 */
export function boundedDistance(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1
  let before = new Array<number>(b.length + 1).fill(0) // row i-2, for transpositions
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, before[j - 2]! + 1)
      current.push(d)
      rowMin = Math.min(rowMin, d)
    }
    if (rowMin > bound) return bound + 1
    before = previous
    previous = current
  }
  return Math.min(previous[b.length]!, bound + 1)
}

/** What the corrector may propose: indexed words, with how many records hold each. */
export interface CorrectionVocabulary {
  /** Candidate words of exactly `length` letters (letters only, no stop or question word). */
  wordsOfLength(length: number): readonly string[]
  /** Records holding `word`, 0 when it is not indexed or not a candidate. */
  frequency(word: string): number
}

type Candidate = { word: string; distance: number; sameStart: boolean; frequency: number }

/**
 * The indexed word closest to `word` within `edits` edits: fewest edits first, then one that keeps
 * the first letter (typos rarely hit it), then the most frequent, then alphabetical order.
 */
export function closestWord(
  word: string,
  vocabulary: CorrectionVocabulary,
  edits: number,
): string | undefined {
  return closestWords(word, vocabulary, edits)[0]
}

/** Every indexed word within `edits` edits of `word`, the closest first (in `closestWord`'s order). */
export function closestWords(word: string, vocabulary: CorrectionVocabulary, edits: number): string[] {
  const found: Candidate[] = []
  for (let length = word.length - edits; length <= word.length + edits; length++) {
    for (const candidate of vocabulary.wordsOfLength(length)) {
      const distance = boundedDistance(word, candidate, edits)
      if (distance > edits) continue
      found.push({
        word: candidate,
        distance,
        sameStart: candidate[0] === word[0],
        frequency: vocabulary.frequency(candidate),
      })
    }
  }
  return found.sort((a, b) => (isBetter(a, b) ? -1 : isBetter(b, a) ? 1 : 0)).map((c) => c.word)
}

function isBetter(a: Candidate, b: Candidate): boolean {
  const rank = (c: Candidate) => c.distance * 2 + (c.sameStart ? 0 : 1)
  return rank(a) !== rank(b)
    ? rank(a) < rank(b)
    : a.frequency !== b.frequency
      ? a.frequency > b.frequency
      : a.word < b.word
}

/**
 * Letters a piece of a split word has at least: with three, "bagnole" read as "bag nole" and
 * "passepartout" as "pas separtout"; a short piece is more often a typo's leftover than a word.
 */
const MIN_PIECE = 4

/**
 * Two indexed words that `word` is made of, as in "autoecole" or "checklist": each of `MIN_PIECE`
 * letters or more; of several splits, the one whose rarer half is the most frequent.
 */
export function splitWord(word: string, vocabulary: CorrectionVocabulary): [string, string] | undefined {
  let best: { parts: [string, string]; weakest: number } | undefined
  for (let at = MIN_PIECE; at <= word.length - MIN_PIECE; at++) {
    const parts: [string, string] = [word.slice(0, at), word.slice(at)]
    const weakest = Math.min(vocabulary.frequency(parts[0]), vocabulary.frequency(parts[1]))
    if (weakest > 0 && (best === undefined || weakest > best.weakest)) best = { parts, weakest }
  }
  return best?.parts
}
