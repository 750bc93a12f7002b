/**
 * `reference-records dump [--kind KIND] [--out FILE]`: every record, as NDJSON (one JSON record per
 * line), read with `RecordsClient.all()`. A file is written under a temporary name and renamed only
 * once the listing is complete, so a failed dump never leaves a file that looks whole.
 */
import { open, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import cliProgress from 'cli-progress'
import type { PageEvent, RetryEvent } from '../../client/index.js'
import { KINDS, KindSchema, type Kind } from '../../core/records/record.js'
import {
  COMMON_HELP,
  openClientWithCatalogue,
  parseCommandLine,
  printRetries,
  processIo,
  runClientCommand,
  write,
  type CliIo,
} from './common.js'
import { everyRecord } from './dump-source.js'
import { EXIT_CODES_HELP, UsageError } from './exit-codes.js'
import { formatRetry, formatWait } from './retry-notice.js'

export const DUMP_USAGE = `Usage: reference-records dump [options]

Writes every record as NDJSON (one JSON record per line): in one request when the service offers
its whole-catalogue download (the catalogue's links.download), else paging through the catalogue.
A progress bar is drawn on stderr when it is a terminal and the records do not go to that same
terminal (with --out, or with stdout piped or redirected). Waits for a retry are shown on stderr.
With --out, the file appears only once the dump is complete.

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

/** A file error in terms of the file the user named, never of the temporary file behind it. */
function fileError(path: string, err: unknown): Error {
  const code = (err as NodeJS.ErrnoException).code
  const why =
    code === 'ENOENT'
      ? `its folder ${dirname(path)} does not exist`
      : code === 'EACCES' || code === 'EPERM'
        ? `permission denied in ${dirname(path)}`
        : code === 'EISDIR'
          ? 'it is a folder'
          : code === 'ENOTDIR'
            ? `${dirname(path)} is not a folder`
            : code === 'ENOSPC'
              ? 'the disk is full'
              : code === 'EROFS'
                ? 'the file system is read-only'
                : (code ?? (err as Error).message)
  return new Error(`cannot write ${path}: ${why}`, { cause: err })
}

async function fileSink(path: string): Promise<Sink> {
  // Checked first: the rename at the end would otherwise fail only after the whole download.
  if (
    await stat(path).then(
      (s) => s.isDirectory(),
      () => false,
    )
  )
    throw fileError(path, Object.assign(new Error(), { code: 'EISDIR' }))
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.partial`)
  const handle = await open(temporary, 'wx').catch((err: unknown) => {
    throw fileError(path, err)
  })
  let closed = false
  const close = async () => {
    if (!closed) await handle.close()
    closed = true
  }
  return {
    write: async (text) => {
      await handle.write(text).catch((err: unknown) => {
        throw fileError(path, err)
      })
    },
    commit: async () => {
      await handle.sync()
      await close()
      await rename(temporary, path).catch((err: unknown) => {
        throw fileError(path, err)
      })
    },
    abort: async () => {
      await close()
      await rm(temporary, { force: true })
    },
  }
}

/** Progress: a bar on stderr's terminal, or nothing; retries are shown in the bar, or as lines before it starts. */
type Progress = { onPage?: (event: PageEvent) => void; onRetry: (event: RetryEvent) => void; stop(): void }

/**
 * A bar only where it cannot garble anything: stderr must be a terminal, and the records must not be
 * going to that same terminal (the bar would be glued to them, and it turns line wrapping off).
 */
function progress(io: CliIo, toFile: boolean): Progress {
  const printRetry = printRetries('dump', io)
  if (!io.stderrIsTTY || (!toFile && io.stdoutSharesTerminal)) return { onRetry: printRetry, stop: () => {} }
  const bar = new cliProgress.SingleBar(
    { stream: io.stderr, format: 'dump [{bar}] {value}/{total} records{status}', hideCursor: true },
    cliProgress.Presets.shades_classic,
  )
  let started = false
  const onPage = ({ total, received }: PageEvent) => {
    if (!started) bar.start(total, 0, { status: '' })
    started = true
    bar.setTotal(Math.max(total, received))
    bar.update(received, { status: '' })
  }
  // During a wait the bar says why it does not move, and counts the wait down each second instead of
  // showing the same "in 60 s" for a minute.
  let countdown: NodeJS.Timeout | undefined
  const onRetry = (event: RetryEvent) => {
    if (!started) return printRetry(event)
    clearInterval(countdown)
    const until = Date.now() + event.waitMs
    const show = () =>
      bar.update({ status: ` · ${formatRetry({ ...event, waitMs: Math.max(0, until - Date.now()) })}` })
    show()
    countdown = setInterval(() => (Date.now() >= until ? clearInterval(countdown) : show()), 1000)
    countdown.unref()
  }
  const onPageAfterWait = (event: PageEvent) => {
    clearInterval(countdown)
    onPage(event)
  }
  return {
    onPage: onPageAfterWait,
    onRetry,
    stop: () => {
      clearInterval(countdown)
      if (started) bar.stop()
    },
  }
}

/** `--kind`, checked with the record schema; the message echoes the value and lists the kinds. */
export function parseKind(value: string | undefined): Kind | undefined {
  if (value === undefined) return undefined
  const parsed = KindSchema.safeParse(value)
  if (!parsed.success)
    throw new UsageError(`--kind ${JSON.stringify(value)}: must be one of ${KINDS.join(', ')}`)
  return parsed.data
}

export async function runDump(args: string[], io: CliIo = processIo()): Promise<number> {
  return runClientCommand('dump', io, async () => {
    const { values, positionals } = parseCommandLine(args, OPTIONS)
    if (values.help) return write(io.stdout, DUMP_USAGE)
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`)
    const kind = parseKind(values.kind)
    const bar = progress(io, values.out !== undefined)
    const { client, catalogue } = await openClientWithCatalogue(values['base-url'], io, bar.onRetry)
    const sink = values.out === undefined ? stdoutSink(io) : await fileSink(values.out)
    // Ctrl-C stops paging and removes the partial file instead of leaving it behind.
    const interrupt = new AbortController()
    const kept = values.out === undefined ? '' : `; ${values.out} was not written`
    const onSigint = () => interrupt.abort(new Error(`interrupted${kept}`))
    process.once('SIGINT', onSigint)
    try {
      const started = Date.now()
      let count = 0
      for await (const record of everyRecord(client, kind, {
        onPage: bar.onPage,
        signal: interrupt.signal,
        catalogue,
      })) {
        await sink.write(`${JSON.stringify(record)}\n`)
        count++
      }
      bar.stop()
      await sink.commit()
      // A file written says so, terminal or not: a script's log shows what it got.
      if (values.out !== undefined)
        await write(
          io.stderr,
          `reference-records dump: ${count} record${count === 1 ? '' : 's'} written to ${values.out} in ${formatWait(Date.now() - started)}\n`,
        )
    } catch (err) {
      bar.stop()
      await sink.abort()
      throw err
    } finally {
      process.off('SIGINT', onSigint)
    }
  })
}
