/** Files written for a test file: one new temporary folder, each file in it written once under a new name. */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A new folder named after `prefix`, and `write`, which writes `content` to a new file `records-<n>.<extension>` there and returns its path. */
export function temporaryFiles(
  prefix: string,
  extension: string,
): { dir: string; write: (content: string | Uint8Array) => string } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  let written = 0
  const write = (content: string | Uint8Array) => {
    const path = join(dir, `records-${written++}.${extension}`)
    writeFileSync(path, content)
    return path
  }
  return { dir, write }
}
