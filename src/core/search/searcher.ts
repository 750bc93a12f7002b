/**
 * The search half of a served snapshot: a query read (interpret.ts), answered by the evaluators
 * (the prepared answers, TextIndex.search, TextIndex.searchBest), ranked, and told back as an
 * interpretation; with no text, the storage's listing. It reads the snapshot's index and columns
 * and the records through `records` (record-store.ts), and changes neither.
 */
import { KINDS, type Kind } from '../records/record.js'
import { loadAliases, type AliasTable } from './aliases.js'
import { loadWordForms, type WordForms } from './forms.js'
import type { IndexQuery, SearchPage } from './index-query.js'
import type { IndexedRecord } from './indexed-record.js'
import { interpretQuery, type Interpretation, type PlannedWord, type QueryPlan } from './interpret.js'
import { Lexicon } from './lexicon.js'
import {
  PREPARE_DEFAULTS,
  PreparedAnswers,
  PreparedAnswersWriter,
  NO_PREPARED_ANSWERS,
  filterKey,
  groupKey,
  type PrepareOptions,
  type PreparedAnswersData,
} from './prepared-answers.js'
import type { Ranking } from './match.js'
import { searchedText } from './snapshot-builder.js'
import type { LexiconData, SnapshotData } from './snapshot-data.js'
import { runThrough, type Steps } from './steps.js'
import { TextIndex } from './text-index.js'
import { fold, queryTokens } from './tokenize.js'

/** What the query side reads besides the index: the word-form exceptions and the alias table. */
export type SearchVocabulary = { forms: WordForms; aliases: AliasTable }
let bundledVocabulary: SearchVocabulary | undefined
/** The bundled data/search files, read once per process. */
const bundledSearchVocabulary = (): SearchVocabulary =>
  (bundledVocabulary ??= { forms: loadWordForms(), aliases: loadAliases() })

/** Relaxed queries shown at most, when nothing matches. */
const MAX_RELAXED = 5
/** Relaxed queries are tried for queries of at most this many required words (each is one more search). */
const MAX_RELAXED_WORDS = 8

/** What a search reads of the storage: the records by number, and the listing of a filter. */
export type SearchedRecords = {
  entry(doc: number): IndexedRecord
  listing(query: Pick<IndexQuery, 'kind' | 'region'>): Uint32Array
}

export class Searcher {
  readonly #data: SnapshotData
  readonly #records: SearchedRecords
  readonly #text: TextIndex
  readonly #vocabulary: SearchVocabulary
  #lexicon: Lexicon | undefined
  readonly #ranking: Ranking
  readonly #prepared: PreparedAnswers
  /** Indexed words as the records write them, found on first use. */
  readonly #displayed = new Map<number, string>()
  /** The last query read, with its plan (`#interpret`). */
  #lastPlan: { q: string; plan: QueryPlan } | undefined

  constructor(data: SnapshotData, records: SearchedRecords, vocabulary = bundledSearchVocabulary()) {
    this.#data = data
    this.#records = records
    this.#text = new TextIndex(data.text)
    this.#vocabulary = vocabulary
    this.#ranking = { tieRank: data.tieRank, rankClass: data.rankClass }
    this.#prepared = new PreparedAnswers(data.prepared ?? NO_PREPARED_ANSWERS)
  }

  /** The lexicon's tables, for a build to hand on with its snapshot (withPreparedAnswers). */
  lexiconTables(): LexiconData {
    return this.#words.data
  }

  /** The words' forms and corrections: built on the first search that needs them, so a swap costs nothing. */
  get #words(): Lexicon {
    // The tables handed with the snapshot were made under the bundled forms; another vocabulary makes its own.
    const made = this.#vocabulary === bundledSearchVocabulary() ? this.#data.lexicon : undefined
    return (this.#lexicon ??= new Lexicon(this.#text, this.#vocabulary.forms, made))
  }

  search(query: IndexQuery): SearchPage {
    return runThrough(this.searchInSteps(query))
  }

  /**
   * `search`, yielding between slices of its evaluation (steps.ts): a caller serving requests gives
   * the event loop a turn at each yield (RecordIndex#searchInTurns).
   */
  *searchInSteps(query: IndexQuery): Steps<SearchPage> {
    if (query.q === undefined || queryTokens(query.q).length === 0) {
      const listing = this.#records.listing(query)
      const interpretation =
        query.q === undefined
          ? undefined
          : { words: [], ignored: [], corrected: [], expanded: [], relaxed: [] }
      const page = listing.subarray(query.offset, query.offset + query.limit)
      return {
        total: listing.length,
        results: Array.from(page, (doc) => this.#records.entry(doc)),
        interpretation,
      }
    }
    const plan = this.#interpret(query.q)
    if (query.match === 'best') return yield* this.#bestMatch(plan.words, plan.interpretation, query)
    const hits = yield* this.#match(plan.words, query, false)
    const relaxed = hits.total === 0 ? yield* this.#relaxed(plan.words, query) : plan.interpretation.relaxed
    return {
      total: hits.total,
      results: hits.docs.map((doc) => this.#records.entry(doc)),
      interpretation: { ...plan.interpretation, relaxed },
    }
  }

  /**
   * The reads of the index this search would make cold, as steps to run one a turn before it
   * (text-index.ts, `readAhead`): a query of common words not yet read then holds the serving
   * thread for one step at a time, not for all its words at once (issue 43, item 3). Empty when the
   * search reads nothing new, so a query of kept words is answered at once.
   */
  readAhead(query: IndexQuery): (() => void)[] {
    if (query.q === undefined || queryTokens(query.q).length === 0) return []
    const words = this.#interpret(query.q).words
    if (words.length === 0) return []
    if (this.#preparedAnswer(words, query, false) !== undefined) return []
    return this.#text.readAhead(
      words.map((w) => w.group),
      query.match === 'best',
    )
  }

  /** The query read (interpret.ts); the last one is kept, as a read-ahead reads it just before its search. */
  #interpret(q: string): QueryPlan {
    if (this.#lastPlan?.q === q) return this.#lastPlan.plan
    const plan = interpretQuery(q, {
      lexicon: this.#words,
      aliases: this.#vocabulary.aliases,
      display: (term) => this.#display(term),
    })
    this.#lastPlan = { q, plan }
    return plan
  }

  /**
   * Best match: the records holding the most of the required words (weighted by rarity), ranked. The
   * interpretation names the words the best records hold (`matched`), those left out, and for each
   * result of the page that lacks some required words, which ones. One required word is an
   * all-words search: a record holds it or not.
   */
  *#bestMatch(
    words: readonly PlannedWord[],
    interpretation: Interpretation,
    query: IndexQuery,
  ): Steps<SearchPage> {
    let answer: { total: number; docs: number[]; masks: number[]; best: number }
    if (words.length === 1) {
      const hits = yield* this.#match(words, query, false)
      answer = { ...hits, masks: hits.docs.map(() => 1), best: hits.total > 0 ? 1 : 0 }
    } else {
      answer = yield* this.#text.searchBestInSteps(
        {
          groups: words.map((w) => w.group),
          keep: this.#filter(query),
          offset: query.offset,
          limit: query.limit,
        },
        this.#ranking,
      )
    }
    const shown = (mask: number) => words.filter((_, i) => ((mask >>> i) & 1) === 1).map((w) => w.shown)
    const lacking = (mask: number) => words.filter((_, i) => ((mask >>> i) & 1) === 0).map((w) => w.shown)
    const results = answer.docs.map((doc) => this.#records.entry(doc))
    const missing = answer.masks.flatMap((mask, i) =>
      lacking(mask).length === 0 ? [] : [{ id: results[i]!.record.id, words: lacking(mask) }],
    )
    return {
      total: answer.total,
      results,
      interpretation: {
        ...interpretation,
        matched: shown(answer.best),
        left_out: lacking(answer.best),
        missing,
      },
    }
  }

  // Relevance: more required words in the title first ("title matches above text matches"), then
  // reference content before offers, tools and staff (rankClass), then BM25, then id.
  *#match(
    words: readonly PlannedWord[],
    query: IndexQuery,
    countOnly: boolean,
  ): Steps<{ total: number; docs: number[] }> {
    const prepared = this.#preparedAnswer(words, query, countOnly)
    if (prepared !== undefined) return prepared
    const groups = words.map((w) => w.group)
    return yield* this.#text.searchInSteps(
      { groups, keep: this.#filter(query), countOnly, offset: query.offset, limit: query.limit },
      this.#ranking,
    )
  }

  /** The answer the build prepared for a query of one broad word (prepared-answers.ts), if any. */
  #preparedAnswer(
    words: readonly PlannedWord[],
    query: IndexQuery,
    countOnly: boolean,
  ): { total: number; docs: number[] } | undefined {
    if (words.length !== 1) return undefined
    const filter = filterKey(query.kind, query.region)
    return this.#prepared.find(words[0]!.group, query.offset, query.limit, countOnly, filter)
  }

  /** The most postings a search built one word's bits from on this snapshot (text-index.ts; the scale tests read it). */
  get largestDenseDecode(): number {
    return this.#text.largestDenseDecode
  }

  /** Broad one-word answers prepared (prepared-answers.ts). */
  get preparedAnswers(): number {
    return this.#prepared.size
  }

  /**
   * The answers to the most frequent words asked alone, without a filter, for a build to keep with
   * the snapshot (prepared-answers.ts): each word is read as a query would read it, and its answer
   * computed as a search would compute it.
   */
  prepareBroadAnswers(options: PrepareOptions = {}): PreparedAnswersData {
    const { minDocuments, maxWords, depth } = { ...PREPARE_DEFAULTS, ...options }
    if (this.#data.count < minDocuments) return NO_PREPARED_ANSWERS
    const writer = new PreparedAnswersWriter()
    for (const term of this.#text.mostFrequent(Math.max(1, minDocuments), maxWords)) {
      const plan = interpretQuery(this.#text.term(term), {
        lexicon: this.#words,
        aliases: this.#vocabulary.aliases,
        display: (t) => this.#text.term(t),
      })
      if (plan.words.length !== 1) continue
      const group = plan.words[0]!.group
      const key = groupKey(group)
      if (writer.has(key)) continue
      const { kinds, france } = this.#data
      const columns = { kinds, france, kindCount: KINDS.length }
      const answers = this.#text.searchByFilter(group, this.#ranking, columns, depth)
      if (answers === undefined) {
        const { total, docs } = this.#text.search(
          { groups: [group], keep: undefined, offset: 0, limit: depth },
          this.#ranking,
        )
        writer.add(key, total, docs)
        continue
      }
      const add = (answer: { total: number; docs: number[] }, kind?: Kind, region?: 'france') =>
        writer.add(groupKey(group, filterKey(kind, region)), answer.total, answer.docs)
      add(answers.all)
      add(answers.france, undefined, 'france')
      KINDS.forEach((kind, k) => {
        add(answers.byKind[k]!, kind)
        add(answers.byKindInFrance[k]!, kind, 'france')
      })
    }
    return writer.done()
  }

  /** The query minus one word, for each word whose removal finds something: fewest matches (most specific) first. */
  *#relaxed(words: readonly PlannedWord[], query: IndexQuery): Steps<Interpretation['relaxed']> {
    if (words.length < 2 || words.length > MAX_RELAXED_WORDS) return []
    const relaxed: Interpretation['relaxed'] = []
    for (const [i, without] of words.entries()) {
      const rest = words.filter((_, j) => j !== i)
      const { total } = yield* this.#match(rest, query, true)
      relaxed.push({ without: without.shown, q: rest.map((w) => w.shown).join(' '), total })
    }
    return relaxed
      .filter((r) => r.total > 0)
      .sort((a, b) => a.total - b.total)
      .slice(0, MAX_RELAXED)
  }

  /**
   * An indexed word as its first record writes it ("vehicule" → "véhicule"), for the interpretation:
   * preferably a spelling that is the indexed word itself (the singular "passage", not "passages").
   */
  #display(term: number): string {
    let shown = this.#displayed.get(term)
    if (shown === undefined) {
      const word = this.#text.term(term)
      let typed: string | undefined
      for (const doc of this.#text.firstDocuments(term, 8)) {
        const { title, body } = searchedText(this.#records.entry(doc).record)
        const spellings = [...queryTokens(title), ...queryTokens(body)]
          .filter((t) => t.word === word)
          .map((t) => t.typed)
        typed = spellings.find((t) => fold(t) === word) ?? typed ?? spellings[0]
        if (typed !== undefined && fold(typed) === word) break
      }
      shown =
        typed === undefined || typed === typed.toUpperCase() ? (typed ?? word) : typed.toLocaleLowerCase('fr')
      this.#displayed.set(term, shown)
    }
    return shown
  }

  /** The kind and region filters as a test on document numbers; undefined when there is none. */
  #filter(query: IndexQuery): ((doc: number) => boolean) | undefined {
    const { kinds, france } = this.#data
    const kind = query.kind === undefined ? -1 : KINDS.indexOf(query.kind)
    if (kind < 0 && query.region === undefined) return undefined
    if (query.region === undefined) return (doc) => kinds[doc] === kind
    return kind < 0 ? (doc) => france[doc] === 1 : (doc) => kinds[doc] === kind && france[doc] === 1
  }
}
