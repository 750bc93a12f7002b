/**
 * The 100 000-record corpus, made by scripts/generate-corpus.ts (another issue) into bench/corpus/
 * (git-ignored). Generated once and reused while the generator is unchanged.
 */
import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { run } from './processes.js'

const GENERATOR = 'scripts/generate-corpus.ts'
const COUNT = 100_000
const CORPUS_FILE = `bench/corpus/records-${COUNT / 1000}k-seed1.ndjson`

export type CorpusOutcome = { file: string } | { skipped: string }

/** Path of the generated corpus, generating it when missing or older than the generator; or why not. */
export async function ensureCorpus(root: string, log: (line: string) => void): Promise<CorpusOutcome> {
  const generator = resolve(root, GENERATOR)
  if (!existsSync(generator)) return { skipped: `${GENERATOR} does not exist yet: the 100k case is skipped` }
  const file = resolve(root, CORPUS_FILE)
  if (existsSync(file) && statSync(file).mtimeMs > statSync(generator).mtimeMs) return { file }
  log(`generating ${CORPUS_FILE} (${COUNT} records, seed 1)`)
  try {
    // tsx from node_modules directly: npx could try the network for a missing binary.
    const tsx = resolve(root, 'node_modules/.bin/tsx')
    await run(tsx, [generator, '--count', String(COUNT), '--seed', '1', '--out', file], undefined, 300_000)
  } catch (err) {
    return {
      skipped: `${GENERATOR} failed, the 100k case is skipped: ${(err as Error).message.slice(0, 400)}`,
    }
  }
  return existsSync(file)
    ? { file }
    : { skipped: `${GENERATOR} wrote no ${CORPUS_FILE}: the 100k case is skipped` }
}
