/**
 * The Node binary the servers under test run on: by default the one running the bench, as the test
 * suite does; `--node 26` (any major version) fetches that release from the npm registry with npx
 * (cached after the first run), so a supported line can be measured beside the machine's own Node
 * without installing it. Node's own per-request work differs between releases, so the report names
 * the servers' version and whether the project supports it.
 */
import { runSync } from './processes.js'

export type ServerNode = { path: string; version: string }

/**
 * The release lines the project supports, which CI runs the suite on (`.ci/run`): 26, the active
 * LTS since 2026-10-28, and 24, in maintenance. Node 20 reached its end of life on 2026-04-30; the
 * README's two commands still work on it, and nothing else is promised.
 */
export const SUPPORTED_NODE_LINES: readonly number[] = [24, 26]
const END_OF_LIFE_NODE_LINES: readonly number[] = [18, 19, 20, 21, 23]

/** What the report says of a Node version (`v26.1.0`): supported, end of life, or neither. */
export function nodeSupport(version: string): 'supported' | 'end of life' | 'not supported' {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1])
  if (SUPPORTED_NODE_LINES.includes(major)) return 'supported'
  return END_OF_LIFE_NODE_LINES.includes(major) || major < 18 ? 'end of life' : 'not supported'
}

/** `choice`: `current` (the Node running the bench), a major version such as `24`, or a binary's path. */
export function resolveServerNode(choice: string): ServerNode {
  if (choice === 'current') return { path: process.execPath, version: process.version }
  const path = /^\d+$/.test(choice) ? fetchedNode(choice) : choice
  const version = runSync(path, ['--version'])
  if (version === undefined || !/^v\d+\./.test(version))
    throw new Error(`bench: ${path} is not a Node binary that runs here (--node ${choice})`)
  return { path, version }
}

function fetchedNode(major: string): string {
  if (process.version.startsWith(`v${major}.`)) return process.execPath
  const path = runSync('npx', ['-y', '-p', `node@${major}`, 'node', '-p', 'process.execPath'])
  if (path === undefined)
    throw new Error(
      `bench: could not fetch Node ${major} from the npm registry with npx; ` +
        `measure on this Node (${process.version}) with --node current`,
    )
  return path.split('\n').at(-1)!.trim()
}
