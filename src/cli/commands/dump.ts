/**
 * `reference-records dump [--kind KIND] [--out FILE]`: every record, as NDJSON (one JSON record per
 * line), read with `RecordsClient.all()`. A file is written under a temporary name and renamed only
 * once the listing is complete, so a failed dump never leaves a file that looks whole.
 */
import { open, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { KINDS, KindSchema, type Kind } from '../../core/records/record.js'
import { COMMON_HELP, openClientWithCatalogue, parseCommandLine } from './common.js'
import { processIo, runClientCommand, write, type CliIo } from './command-io.js'
import { everyRecord } from './dump-source.js'
import { EXIT_CODES_HELP, UsageError } from './exit-codes.js'
import { onInterrupt } from './interrupt.js'
import { commandProgress } from './progress.js'
import { formatWait } from './retry-notice.js'

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

/** Characters gathered before a write to the file. */
const WRITE_CHUNK = 64 * 1024

/** Where the lines go: stdout, or a temporary file renamed into place on success. */
type Sink = { write(text: string): Promise<void>; commit(): Promise<void>; abort(): Promise<void> }

async function stdoutSink(io: CliIo): Promise<Sink> {
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
  // Lines are gathered into writes of about 64 KiB: a write per record took most of a large dump's time.
  let buffered: string[] = []
  let bufferedLength = 0
  const flush = async () => {
    if (buffered.length === 0) return
    const text = buffered.join('')
    buffered = []
    bufferedLength = 0
    await handle.write(text).catch((err: unknown) => {
      throw fileError(path, err)
    })
  }
  return {
    write: async (text) => {
      buffered.push(text)
      bufferedLength += text.length
      if (bufferedLength >= WRITE_CHUNK) await flush()
    },
    commit: async () => {
      await flush()
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
    const toFile = values.out !== undefined
    // No bar when the records go to that same terminal: it would be glued to them.
    const bar = commandProgress(io, 'dump', toFile || !io.stdoutSharesTerminal)
    const { client, catalogue } = await openClientWithCatalogue(values, io, bar.onRetry)
    // Ctrl-C or a SIGTERM stops reading and removes the partial file instead of leaving it behind.
    const kept = values.out === undefined ? '' : `; ${values.out} was not written`
    const interrupt = onInterrupt(kept)
    const sink = await (values.out === undefined ? stdoutSink(io) : fileSink(values.out)).catch(
      (err: unknown) => {
        interrupt.dispose()
        throw err
      },
    )
    let started = false
    try {
      const begun = Date.now()
      let count = 0
      for await (const record of everyRecord(client, kind, {
        onPage: ({ received, total }) => {
          if (!started) bar.step('', { total, unit: 'records' })
          started = true
          bar.update(received, total)
        },
        signal: interrupt.signal,
        catalogue,
      })) {
        await sink.write(`${JSON.stringify(record)}\n`)
        count++
      }
      bar.clear()
      await sink.commit()
      // One summary line, terminal or not: a script's log shows what it got.
      const where = values.out === undefined ? '' : ` to ${values.out}`
      await write(
        io.stderr,
        `reference-records dump: ${count} record${count === 1 ? '' : 's'} written${where} in ${formatWait(Date.now() - begun)}\n`,
      )
    } catch (err) {
      bar.clear()
      await sink.abort()
      throw err
    } finally {
      interrupt.dispose()
    }
  })
}
