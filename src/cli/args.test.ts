import { parseArgs } from 'node:util'
import { describe, expect, it } from 'vitest'
import { UsageError, describeArgsError, parseCommandArgs, suggest } from './args.js'

const OPTIONS = {
  kind: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** parseArgs's own error for these arguments, to check what we make of it. */
function nodeError(args: string[], allowPositionals = true): unknown {
  try {
    parseArgs({ args, options: OPTIONS, strict: true, allowPositionals })
  } catch (err) {
    return err
  }
  throw new Error('parseArgs accepted the arguments')
}

describe('describeArgsError: parseArgs complaints in our words', () => {
  it.each([
    [['--kindd', 'x'], true, 'unknown option --kindd; did you mean --kind?'],
    [['--verbose'], true, 'unknown option --verbose'],
    [['-x'], true, 'unknown option -x'],
    [['--kind'], true, 'option --kind needs a value, e.g. --kind VALUE'],
    [['--json=yes'], true, 'option --json takes no value'],
    [['stray'], false, 'unexpected argument "stray"'],
  ])('%j', (args, allowPositionals, message) => {
    const err = nodeError(args, allowPositionals)
    expect(describeArgsError(err, OPTIONS)).toBe(message)
    expect(describeArgsError(err, OPTIONS)).not.toContain("'") // Node's text quotes unevenly
  })

  it('throws a UsageError from parseCommandArgs', () => {
    expect(() => parseCommandArgs(['--jsn'], OPTIONS, true)).toThrow(
      new UsageError('unknown option --jsn; did you mean --json?'),
    )
    expect(parseCommandArgs(['a', '--kind', 'fact'], OPTIONS, true)).toMatchObject({
      values: { kind: 'fact' },
      positionals: ['a'],
    })
  })
})

describe('suggest', () => {
  it('finds a near miss, and nothing for a far one', () => {
    expect(suggest('serch', ['serve', 'search', 'get'])).toBe('search')
    expect(suggest('catalgoue', ['catalogue', 'dump'])).toBe('catalogue')
    expect(suggest('statistics', ['serve', 'search', 'get', 'catalogue', 'dump', 'mcp'])).toBeUndefined()
  })
})
