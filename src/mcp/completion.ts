/**
 * Completion of a record id as it is typed (the record template's `{id}`, the prompts' record
 * argument): by id prefix when the text starts like an id, else by title words, through the same
 * search as the tools. At most MAX_COMPLETIONS values, as the protocol allows 100.
 *
 * The server answers completion/complete itself rather than through the SDK's `completable()`: the
 * SDK refuses a prompt or a template it does not know (-32602), where a completion is a hint and
 * a client asking about an argument this server does not complete is offered nothing. The official
 * conformance suite asks exactly that (its own test prompt) and expects an empty list.
 */
import type { McpServer } from '@modelcontextprotocol/server'
import type { RecordReader } from '../core/api/reader.js'
import { ID_PREFIXES } from '../core/search/snapshot-builder.js'

/** The arguments completed with record ids: "ref/prompt <prompt> <argument>" or "ref/resource <uri template> <variable>". */
export type CompletedArguments = ReadonlySet<string>
export const completedArgument = (type: 'ref/prompt' | 'ref/resource', ref: string, argument: string) =>
  `${type} ${ref} ${argument}`

/** Installs the completion/complete handler: record ids for `completed` arguments, nothing for any other. */
export function registerCompletion(
  server: McpServer,
  reader: RecordReader,
  completed: CompletedArguments,
): void {
  server.server.setRequestHandler('completion/complete', async (request) => {
    const { ref, argument } = request.params
    const key = completedArgument(ref.type, ref.type === 'ref/prompt' ? ref.name : ref.uri, argument.name)
    const values = completed.has(key) ? await completeRecordId(reader, argument.value) : []
    return { completion: { values, total: values.length, hasMore: false } }
  })
}

const MAX_COMPLETIONS = 20
/** Text that starts like an id: with a dash, a piece of a kind prefix or a prefix and hex digits ("fait" alone is a French word, searched as one). */
const startsLikeId = (text: string) =>
  text.includes('-') &&
  ID_PREFIXES.some(
    (p) => p.startsWith(text) || (text.startsWith(p) && /^[0-9a-f]{0,16}$/.test(text.slice(p.length))),
  )

async function completeRecordId(reader: RecordReader, typed: string): Promise<string[]> {
  const text = typed.trim()
  if (text === '') return []
  const lower = text.toLowerCase()
  if (startsLikeId(lower) && reader.idsStartingWith !== undefined) {
    const ids = await reader.idsStartingWith(lower, MAX_COMPLETIONS)
    if (ids.length > 0) return ids
  }
  try {
    const page = await reader.search({
      q: text.slice(0, 200),
      match: 'best',
      limit: MAX_COMPLETIONS,
      offset: 0,
    })
    return page.results.map((r) => r.id)
  } catch {
    return [] // a completion is a hint: a failed search (no snapshot yet, a remote error) offers nothing
  }
}
