/**
 * `reference-records dump [--kind KIND] [--out FILE]`: every record, as NDJSON (one JSON record per
 * line), read with `RecordsClient.all()`. A file is written under a temporary name and renamed only
 * once the listing is complete, so a failed dump never leaves a file that looks whole.
 */
import { open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import cliProgress from 'cli-progress'
import type { PageEvent } from '../../client/index.js'
import { KindSchema } from '../../http/schemas.js'
import { KINDS, type Kind } from '../../records/record.js'
import {
  COMMON_HELP,
  clientFor,
  parseCommandLine,
  processIo,
  runClientCommand,
  write,
  type CliIo,
} from './common.js'
import { EXIT_CODES_HELP, UsageError } from './exit-codes.js'

export const DUMP_USAGE = `Usage: reference-records dump [options]

Writes every record as NDJSON (one JSON record per line), paging through the whole catalogue.
A progress bar is drawn on stderr when it is a terminal. With --out, the file appears only once
the dump is complete.

Options:
  --kind KIND         Only records of this kind: ${KINDS.join(', ')}
  --out FILE          Write to FILE instead of stdout
${COMMON_HELP}

${EXIT_CODES_HELP}

Example:
  reference-records dump --kind fact --out facts.ndjson
`

const OPTIONS = { kind: { type: 'string' }, out: { type: 'string' } } as const

/** Where the lines go: stdout, or a temporary file renamed into place on success. */
type Sink = { write(text: string): Promise<void>; commit(): Promise<void>; abort(): Promise<void> }

function stdoutSink(io: CliIo): Sink {
  return { write: (text) => write(io.stdout, text), commit: async () => {}, abort: async () => {} }
}

async function fileSink(path: string): Promise<Sink> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.partial`)
  const handle = await open(temporary, 'wx')
  let closed = false
  const close = async () => {
    if (!closed) await handle.close()
    closed = true
  }
  return {
    write: async (text) => {
      await handle.write(text)
    },
    commit: async () => {
      await handle.sync()
      await close()
      await rename(temporary, path)
    },
    abort: async () => {
      await close()
      await rm(temporary, { force: true })
    },
  }
}

/** A progress bar on stderr when it is a terminal; nothing otherwise (logs and pipes stay clean). */
function progress(io: CliIo) {
  if (!io.stderrIsTTY) return { onPage: undefined, stop: () => {} }
  const bar = new cliProgress.SingleBar(
    { stream: io.stderr, format: 'dump [{bar}] {value}/{total} records', hideCursor: true },
    cliProgress.Presets.shades_classic,
  )
  let started = false
  const onPage = ({ total, received }: PageEvent) => {
    if (!started) bar.start(total, 0)
    started = true
    bar.setTotal(Math.max(total, received))
    bar.update(received)
  }
  return { onPage, stop: () => started && bar.stop() }
}

function parseKind(value: string | undefined): Kind | undefined {
  if (value === undefined) return undefined
  const parsed = KindSchema.safeParse(value)
  if (!parsed.success) throw new UsageError(`--kind must be one of ${KINDS.join(', ')}, got "${value}"`)
  return parsed.data
}

export async function runDump(args: string[], io: CliIo = processIo()): Promise<number> {
  return runClientCommand('dump', io, async () => {
    const { values, positionals } = parseCommandLine(args, OPTIONS)
    if (values.help) return write(io.stdout, DUMP_USAGE)
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`)
    const kind = parseKind(values.kind)
    const client = clientFor(values['base-url'], io)
    const sink = values.out === undefined ? stdoutSink(io) : await fileSink(values.out)
    const bar = progress(io)
    // Ctrl-C stops paging and removes the partial file instead of leaving it behind.
    const interrupt = new AbortController()
    const kept = values.out === undefined ? '' : `; ${values.out} was not written`
    const onSigint = () => interrupt.abort(new Error(`interrupted${kept}`))
    process.once('SIGINT', onSigint)
    try {
      for await (const record of client.all({ kind }, { onPage: bar.onPage, signal: interrupt.signal })) {
        await sink.write(`${JSON.stringify(record)}\n`)
      }
      bar.stop()
      await sink.commit()
    } catch (err) {
      bar.stop()
      await sink.abort()
      throw err
    } finally {
      process.off('SIGINT', onSigint)
    }
  })
}
