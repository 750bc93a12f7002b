/**
 * Command-line parsing shared by every command: `node:util` parseArgs in strict mode, with its
 * complaints rewritten in the command's words (its own text quotes unevenly and talks about
 * positional arguments), and a "did you mean" for a near miss.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { closestMatch } from 'leven'

/** A bad command line, found before anything else is done. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/** The closest candidate to a mistyped word, if one is close enough to be what was meant. */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  // Two edits catch a swapped or missing letter; a third for long words ("catalgoue" → "catalogue").
  return closestMatch(word, candidates, { maxDistance: word.length >= 8 ? 3 : 2 })
}

type Options = NonNullable<ParseArgsConfig['options']>

/** `--kind`, or `-h` for a short one, as the user typed it in the message parseArgs gave. */
const optionIn = (message: string): string | undefined => /'(--?[^'\s=]+)/.exec(message)?.[1]

/** parseArgs's error as one sentence of ours. */
export function describeArgsError(err: unknown, options: Options): string {
  const { code, message } = err as { code?: string; message: string }
  const option = optionIn(message)
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option !== undefined) {
    const longNames = Object.keys(options).map((name) => `--${name}`)
    const near = option.startsWith('--') ? suggest(option, longNames) : undefined
    return `unknown option ${option}${near === undefined ? '' : `; did you mean ${near}?`}`
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option !== undefined) {
    const name = option.replace(/^-+/, '')
    const takesValue =
      options[name]?.type === 'string' ||
      Object.values(options).some((o) => o.short === name && o.type === 'string')
    return takesValue
      ? `option ${option} needs a value, e.g. ${option} VALUE`
      : `option ${option} takes no value`
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const argument = /'([^']*)'/.exec(message)?.[1]
    return argument === undefined ? 'this command takes no arguments' : `unexpected argument "${argument}"`
  }
  return message
}

/** What parseArgs returns for these options, typed per option. */
export type ParsedArgs<O extends Options, P extends boolean> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: P }>
>

/** parseArgs in strict mode; a bad command line throws a `UsageError` in our words. */
export function parseCommandArgs<O extends Options, P extends boolean>(
  args: string[],
  options: O,
  allowPositionals: P,
): ParsedArgs<O, P> {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals })
  } catch (err) {
    throw new UsageError(describeArgsError(err, options))
  }
}
