/**
 * The sample's vocabulary as the search sees it: every group of distinct words of the records that
 * the index treats as one word, for the exhaustive check in test/relevance/vocabulary.test.ts and
 * for docs/search-forms.md (scripts/word-forms.ts), the reviewed list that check compares against.
 */
import type { Fact } from '../../src/core/records/record.js'
import type { WordForms } from '../../src/core/search/forms.js'
import { searchedText as toIndexedText } from '../../src/core/search/snapshot-builder.js'
import { fold, foldPlural, tokenize } from '../../src/core/search/tokenize.js'

/**
 * What first makes the words of a group one: accent and case folding alone (the contract's), then
 * plural folding, then word forms (the stemmer and data/search/forms.json). Each group is listed
 * once, under the last step it needs, so a reviewer reads each kind of merge in its own table.
 */
const MERGE_LEVELS = ['accents', 'plurals', 'forms'] as const
type MergeLevel = (typeof MERGE_LEVELS)[number]

/** A group of two or more written words the index holds under one key (a form key, or the folded word). */
export type WordMerge = { level: MergeLevel; key: string; words: string[] }

/**
 * Every word of these records as written, in lower case with its accents (title, text,
 * description, references), cut where the index cuts words (apostrophes, hyphens, punctuation).
 */
export function writtenWords(records: readonly Fact[]): Set<string> {
  const words = new Set<string>()
  for (const record of records) {
    const { title, body } = toIndexedText(record)
    for (const word of `${title}\n${body}`
      .normalize('NFC')
      .toLowerCase()
      .split(/[^\p{L}\p{N}\p{M}]+/u))
      if (word !== '') words.add(word)
  }
  return words
}

/** Every group of distinct written words of these records that a query finds as one word, sorted by level and key. */
export function wordMerges(records: readonly Fact[], forms: WordForms): WordMerge[] {
  const byKey = new Map<string, Set<string>>()
  for (const word of writtenWords(records)) {
    // A written word is one indexed word (tokenize splits on the same characters), but for a
    // compatibility character that NFKD turns into several ("½"): those cannot meet another word.
    const indexed = tokenize(word)
    if (indexed.length !== 1) continue
    const key = forms.key(indexed[0]!)
    byKey.set(key, (byKey.get(key) ?? new Set()).add(word))
  }
  const merges: WordMerge[] = []
  for (const [key, group] of byKey) {
    if (group.size < 2) continue
    const words = [...group].sort((a, b) => a.localeCompare(b, 'fr'))
    const level: MergeLevel =
      new Set(words.map(fold)).size === 1
        ? 'accents'
        : new Set(words.map((w) => foldPlural(fold(w)))).size === 1
          ? 'plurals'
          : 'forms'
    merges.push({ level, key, words })
  }
  return merges.sort(
    (a, b) =>
      MERGE_LEVELS.indexOf(a.level) - MERGE_LEVELS.indexOf(b.level) ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  )
}

/** One table row per group, as docs/search-forms.md writes it (and the test reads it back). */
export const mergeRow = (merge: WordMerge): string => `| ${merge.key} | ${merge.words.join(', ')} |`

const SECTIONS: Record<MergeLevel, { title: string; about: string[] }> = {
  accents: {
    title: 'Accents',
    about: [
      'Words that differ only by their accents. The contract folds accents and case ([contract.md](contract.md#search-semantics),',
      '"Search semantics"), so `côte` and `côté`, `sur` and `sûr`, `du` and `dû` are one word for the',
      "search: the contract's choice, not this service's. More such pairs are in the tables below,",
      'where plurals or forms join them too (`côte`, `côté`, `côtés`).',
    ],
  },
  plurals: {
    title: 'Plural folding',
    about: [
      'Words that the light plural folding makes one (`src/core/search/tokenize.ts`, `foldPlural`), after',
      'accents: mostly a word and its plural. A group that joins two different words (a verb form that',
      'looks like a plural, a homograph) is either kept apart in `NOT_PLURALS` (`sommes`, `peux`) or',
      'accepted and named in docs/search.md ("Folding": `fonds` / `fond`).',
    ],
  },
  forms: {
    title: 'Word forms',
    about: [
      'Words that are forms of one word (`src/core/search/forms.ts`, `data/search/forms.json`), after',
      'accents and plurals: the key is the form key. Harmful groups the light stemmer would make are',
      'kept apart in `data/search/forms.json`; forms no ending rule sees are joined there.',
    ],
  },
}

/** docs/search-forms.md: every merge on the sample, for review. */
export function sampleMergesMarkdown(records: readonly Fact[], forms: WordForms): string {
  const merges = wordMerges(records, forms)
  const lines = [
    '# Words the search treats as one, on the sample corpus',
    '',
    'Every group of distinct words of the bundled sample (`data/records.json`: titles, texts,',
    'descriptions, references) that the index holds as one word, so a query on any of them finds them',
    'all (docs/search.md, "How a query is read" and "Word forms"). Words are shown as the records',
    'write them, in lower case; the key is what the index holds them under (the form key, or `=word`',
    'for a word kept apart by `data/search/forms.json`). Generated by `npm run -s word-forms > docs/search-forms.md`;',
    '`test/relevance/vocabulary.test.ts` fails, naming the group, as soon as the code or the sample',
    'merges words this list does not hold, or stops merging words it holds: a new merge ships only',
    `once reviewed here. Forms file: \`data/search/forms.json\`, version ${forms.version}.`,
    '',
    `${merges.length} groups: ${MERGE_LEVELS.map((level) => `${merges.filter((m) => m.level === level).length} by ${SECTIONS[level].title.toLowerCase()}`).join(', ')}.`,
  ]
  for (const level of MERGE_LEVELS) {
    const section = merges.filter((m) => m.level === level)
    lines.push(
      '',
      `## ${SECTIONS[level].title}`,
      '',
      ...SECTIONS[level].about,
      '',
      `${section.length} groups.`,
      '',
    )
    lines.push('| key | words |', '|---|---|', ...section.map(mergeRow))
  }
  lines.push('')
  return lines.join('\n')
}
