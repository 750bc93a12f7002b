/**
 * The discovery documents checked against the schemas they claim: the MCP Registry's server.json
 * schema (JSON Schema draft-07) and the Server Card schema (2020-12), as the local subsets in
 * test/fixtures say (the tests have no network to fetch the published ones).
 */
import { readFileSync } from 'node:fs'
import { Ajv } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'

type FormatsPlugin = (ajv: Ajv | Ajv2020) => void
const addFormats = addFormatsModule as unknown as FormatsPlugin
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as object

const draft07 = new Ajv({ strict: false, allErrors: true })
addFormats(draft07)
const serverJson = draft07.compile(fixture('mcp-registry-server.schema.json'))

const draft2020 = new Ajv2020({ strict: false, allErrors: true })
addFormats(draft2020)
const serverCard = draft2020.compile(fixture('mcp-server-card.schema.json'))

/** The schema's complaints about `doc`, one line each; empty when it is valid. */
export function serverJsonProblems(doc: unknown): string[] {
  return serverJson(doc) ? [] : (serverJson.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`)
}

export function serverCardProblems(doc: unknown): string[] {
  return serverCard(doc) ? [] : (serverCard.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`)
}
