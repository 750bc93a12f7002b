/**
 * Writes a deterministic, seeded corpus of valid records as NDJSON, for scale tests and benchmarks.
 *
 * @example
 *   npm run corpus:generate -- --count 100000 --seed 1 --out bench/corpus/100k.ndjson
 *
 * Options: --count N (required, 1 … 100 000 000), --seed S (any text, default "1"), --out FILE
 * (required; parent folders are created), --sample FILE (records to learn from, default the bundled
 * data/records.json). The same sample, seed and count always give the same bytes. Generated files
 * are not to be committed: write them under bench/corpus/ or /tmp.
 */
import { createWriteStream } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { parseArgs } from 'node:util'
import { BUNDLED_RECORDS_FILE } from '../src/config.js'
import { FileRecordSource } from '../src/core/records/file-source.js'
import { CorpusGenerator } from './corpus/generate.js'
import { writeLines } from './corpus/ndjson-writer.js'

const MAX_COUNT = 100_000_000
const USAGE = 'usage: generate-corpus --count N --out FILE [--seed S] [--sample FILE]'

type Args = { count: number; seed: string; out: string; sample: string }

function readArgs(argv: string[]): Args {
  const { values } = parseArgs({
    args: argv,
    options: {
      count: { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
      sample: { type: 'string' },
    },
    strict: true,
  })
  const count = Number(values.count)
  if (values.count === undefined || !Number.isInteger(count) || count < 1 || count > MAX_COUNT) {
    throw new Error(
      `--count must be an integer from 1 to ${MAX_COUNT}, got ${JSON.stringify(values.count ?? null)}\n${USAGE}`,
    )
  }
  if (!values.out) throw new Error(`--out is required\n${USAGE}`)
  return { count, seed: values.seed ?? '1', out: values.out, sample: values.sample ?? BUNDLED_RECORDS_FILE }
}

async function main(): Promise<void> {
  const args = readArgs(process.argv.slice(2))
  const started = performance.now()
  const source = new FileRecordSource(args.sample)
  const { records: sample } = await source.load()
  await source.close()
  const generator = new CorpusGenerator({ sample, seed: args.seed })
  await mkdir(dirname(args.out), { recursive: true })
  const bytes = await writeLines(generator.lines(args.count), createWriteStream(args.out))
  const summary = {
    out: args.out,
    count: args.count,
    seed: args.seed,
    bytes,
    ms: Math.round(performance.now() - started),
  }
  process.stderr.write(`${JSON.stringify(summary)}\n`)
}

main().catch((err: unknown) => {
  process.stderr.write(`generate-corpus: ${err instanceof Error ? err.message : String(err)}\n`)
  process.exitCode = 1
})
