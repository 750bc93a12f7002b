/**
 * The stdio transport of `reference-records mcp`, answering every request it was sent before it
 * closes. The SDK's transport closes as soon as stdin ends and drops the requests still in flight
 * (its documented behaviour): a client that pipes its requests in (`printf … | reference-records mcp
 * --base-url …`) then got no answer at all from a remote reader, whose answers all wait on the
 * network, and every answer from a local one. Here the transport reads a copy of stdin whose end is
 * passed on only once each request seen has been answered, so the process works as a filter:
 * requests in, answers out, then exit; a line that is not JSON gets JSON-RPC's parse error. A bound
 * keeps a request that never settles from holding the process forever.
 */
import { PassThrough, type Readable, type Writable } from 'node:stream'
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio'

type Message = Parameters<StdioServerTransport['send']>[0]
type RequestId = string | number
const PARSE_ERROR = -32700

/** How long stdin's end waits for the last answers: above the client's retries of a remote read. */
const LAST_ANSWERS_BOUND_MS = 60_000

export class AnsweringStdioTransport extends StdioServerTransport {
  readonly #unanswered = new Set<RequestId>()
  #endInput: (() => void) | undefined

  constructor(stdin: Readable = process.stdin, stdout: Writable = process.stdout) {
    const input = new PassThrough()
    super(input, stdout)
    let partial = ''
    stdin.on('data', (chunk: Buffer) => {
      // Request ids are read from the same lines the transport parses (newline-delimited JSON-RPC).
      const lines = (partial + chunk.toString('utf8')).split('\n')
      partial = lines.pop()!
      for (const line of lines) this.#note(line)
      input.write(chunk)
    })
    stdin.on('error', (err) => input.destroy(err))
    stdin.on('end', () => {
      this.#note(partial)
      const bound = setTimeout(() => input.end(), LAST_ANSWERS_BOUND_MS).unref()
      this.#endInput = () => {
        clearTimeout(bound)
        this.#endInput = undefined
        input.end()
      }
      this.#endIfAnswered()
    })
  }

  override async send(message: Message): Promise<void> {
    try {
      await super.send(message)
    } finally {
      if (('result' in message || 'error' in message) && 'id' in message && message.id !== undefined)
        this.#unanswered.delete(message.id as RequestId)
      this.#endIfAnswered()
    }
  }

  /** Counts `line` as a request to answer when it is one (a method and an id). */
  #note(line: string): void {
    if (line.trim() === '') return
    try {
      const message = JSON.parse(line) as { method?: unknown; id?: unknown }
      if (
        typeof message.method === 'string' &&
        (typeof message.id === 'string' || typeof message.id === 'number')
      )
        this.#unanswered.add(message.id)
    } catch {
      // JSON-RPC 2.0 §5.1 answers a parse error with a null id; the SDK's transport skips the line
      // silently, which leaves a person typing at the prompt with no clue.
      const answer = {
        jsonrpc: '2.0',
        id: null,
        error: { code: PARSE_ERROR, message: 'Parse error: not JSON' },
      }
      super.send(answer as unknown as Message).catch(() => {})
    }
  }

  #endIfAnswered(): void {
    if (this.#unanswered.size === 0) this.#endInput?.()
  }
}
