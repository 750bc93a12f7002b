/**
 * The last step of `npm run build`: give every file of package.json's `bin` the executable bit.
 *
 * tsc writes new files without it, and `npm pack` (prepack empties dist/, prepare rebuilds it) leaves
 * a new dist/cli/main.js behind. A command installed from the clone (`npm install --global .` links
 * to the clone's dist/) and `npx reference-records` in the clone then failed with "Permission
 * denied" (exit 126); npm sets the bit only when it installs, not when a script rebuilds. Done in
 * Node rather than `chmod` in the script string, so the build runs where there is no `chmod`
 * (Windows, where the mode is ignored anyway). Issue 31, item 1.
 */
import { chmodSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const bins = typeof pkg.bin === 'string' ? [pkg.bin] : Object.values(pkg.bin ?? {})

for (const bin of bins) {
  const path = join(root, bin)
  const mode = statSync(path).mode & 0o7777
  // Execute wherever the file is readable (0644 → 0755), as npm's own bin linking does.
  chmodSync(path, mode | ((mode & 0o444) >> 2))
}
