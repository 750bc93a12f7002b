/**
 * The Node binary the servers under test run on: by default the one running the bench, as the test
 * suite does; `--node 24` (any major version) fetches that release from the npm registry with npx
 * (cached after the first run), so the current LTS can be measured beside an older Node without
 * installing it. Node's own per-request work differs between releases, so the report names the
 * servers' version.
 */
import { runSync } from './processes.js'

export type ServerNode = { path: string; version: string }

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
