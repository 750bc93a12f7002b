/**
 * The floor: a bare node:http server that answers each request of the mix with the service's own
 * recorded answer for it (status, the service's header fields through the public `writeHead` with a
 * fresh `x-request-id`, and the same body bytes). It does nothing a server keeping the contract could
 * skip: it reads the request (its body too, for MCP POSTs), finds its answer in one map and writes
 * it. Its rate is the most any server keeping the contract can do on that mix, so a service row
 * divided by it says how much the service's own work costs, and nothing else.
 *
 * The answers file is written by bench/lib/record-answers.ts from the running service before the
 * passes. A request it holds no answer for gets a 500, which wrk counts as an error: a floor that
 * answered something else would measure something else.
 *
 * Run: node --import tsx bench/targets/replay.ts --port 8102 --answers-file answers.json
 */
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { parseArgs } from 'node:util'
import { answerKey, type RecordedAnswer } from '../lib/record-answers.js'

const { values } = parseArgs({ options: { port: { type: 'string' }, 'answers-file': { type: 'string' } } })
const port = Number(values.port)
if (!Number.isInteger(port) || values['answers-file'] === undefined)
  throw new Error('replay: --port and --answers-file are required')

type Replay = { status: number; fields: string[]; idAt: number; body: Buffer }

const recorded = JSON.parse(readFileSync(values['answers-file'], 'utf8')) as RecordedAnswer[]
const answers = new Map<string, Replay>(
  recorded.map((a) => [
    a.key,
    {
      status: a.status,
      fields: a.fields,
      // The value's index in the flat list; 0 when the service sent no request id.
      idAt: a.fields.findIndex((f, i) => i % 2 === 0 && f.toLowerCase() === 'x-request-id') + 1,
      body: Buffer.from(a.bodyBase64, 'base64'),
    },
  ]),
)

function send(req: IncomingMessage, res: ServerResponse, body: string): void {
  const inm = req.headers['if-none-match']
  const answer = answers.get(answerKey(req.method!, req.url!, typeof inm === 'string' ? inm : '', body))
  if (answer === undefined) {
    res.writeHead(500, { 'content-type': 'text/plain' }).end('replay: no recorded answer\n')
    return
  }
  const fields = answer.fields.slice()
  if (answer.idAt > 0) fields[answer.idAt] = randomUUID() // the service makes one per answer too
  res.writeHead(answer.status, fields)
  res.end(answer.body)
}

const server = createServer((req, res) => {
  if (req.method === 'GET' || req.method === 'HEAD') {
    req.resume()
    send(req, res, '')
    return
  }
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => send(req, res, Buffer.concat(chunks).toString('utf8')))
})
server.keepAliveTimeout = 5_000 // the service's value
server.listen(port, '127.0.0.1')
process.on('SIGTERM', () => server.close(() => process.exit(0)))
process.on('SIGINT', () => server.close(() => process.exit(0)))
