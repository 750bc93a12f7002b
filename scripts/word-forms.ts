/**
 * Prints docs/search-forms.md: every group of indexed words of the bundled sample that the search
 * treats as forms of one word (src/core/search/forms.ts), for review. A test checks the file against
 * the code, so regenerate it after changing the stemmer or data/search/forms.json:
 *
 * @example
 *   npm run word-forms > docs/search-forms.md
 */
import { BUNDLED_RECORDS_FILE } from '../src/config.js'
import { FileRecordSource } from '../src/core/records/file-source.js'
import { loadWordForms } from '../src/core/search/forms.js'
import { sampleFormGroupsMarkdown } from '../test/relevance/vocabulary.js'

const batch = await new FileRecordSource(BUNDLED_RECORDS_FILE).load()
process.stdout.write(sampleFormGroupsMarkdown(batch.records, loadWordForms()))
