#!/usr/bin/env node
/**
 * The `reference-records` command's entry. It loads the command line (cli.ts) only after
 * early-build-threads.ts has run: a module's static imports are all read and compiled before any of
 * them runs, and the command line's (zod, the settings) took a tenth of a second.
 */
import './early-build-threads.js'

await import('./cli.js')
