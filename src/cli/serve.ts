/** `reference-records serve`: every setting is an environment variable and a flag of the same name. */
import { parseArgs } from 'node:util'
import { SETTING_NAMES, SettingsSchema, flagName, loadConfig } from '../config.js'
import { startServer } from '../server.js'

function usage(): string {
  const lines = SETTING_NAMES.map((name) => {
    const description = SettingsSchema.shape[name].description ?? ''
    return `  --${flagName(name).padEnd(20)} ${name}${description ? `: ${description}` : ''}`
  })
  return `Usage: reference-records serve [options]\n\nOptions (each also read from the environment variable named after it; flags win):\n${lines.join('\n')}\n`
}

export async function runServe(args: string[]): Promise<number> {
  let flags: Record<string, string | boolean | undefined>
  try {
    const options = Object.fromEntries(SETTING_NAMES.map((n) => [flagName(n), { type: 'string' as const }]))
    flags = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }).values
  } catch (err) {
    process.stderr.write(`reference-records serve: ${(err as Error).message}\n\n${usage()}`)
    return 2
  }
  if (flags.help) {
    process.stdout.write(usage())
    return 0
  }
  let config
  try {
    config = loadConfig(process.env, flags as Record<string, string | undefined>)
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`)
    return 2
  }
  await startServer(config, { handleSignals: true })
  return 0
}
