/**
 * Prints docs/search-forms.md: every group of distinct words of the bundled sample that the search
 * treats as one word (accents, plural folding, word forms), for review. A test checks the file
 * against the code, so regenerate it after changing the folding, the stemmer, data/search/forms.json
 * or the sample, and review the groups the diff adds:
 *
 * @example
 *   npm run -s word-forms > docs/search-forms.md
 */
import { BUNDLED_RECORDS_FILE } from '../src/config.js'
import { FileRecordSource } from '../src/core/records/file-source.js'
import { loadWordForms } from '../src/core/search/forms.js'
import { sampleMergesMarkdown } from '../test/relevance/vocabulary.js'

const batch = await new FileRecordSource(BUNDLED_RECORDS_FILE).load()
process.stdout.write(sampleMergesMarkdown(batch.records, loadWordForms()))
