/** The package's version, for the MCP server's identity and logs (read once from package.json). */
import { readFileSync } from 'node:fs'

export const PACKAGE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version
