/**
 * The reference: a bare node:http server answering every request, whatever its method and path, with
 * one pre-built buffer the size of a typical search response. It is the most a Node process can do
 * for that response size on this machine, so the service's req/s divided by its req/s says how much
 * the service's own work costs.
 *
 * With `--fields-file`, it also sends the header fields the service sent with that response (a JSON
 * list name, value, …; `x-request-id` made anew for each answer, as the service does) through the
 * same public `writeHead`: the floor the contract's fields (CORS, security, ETag, request id) put
 * under the service, measured in the same run rather than argued.
 *
 * Run: node --import tsx bench/targets/reference.ts --port 8101 --body-file search-response.json
 *      [--fields-file search-response-fields.json]
 * (the bench saves a real search response of the service there; nginx serves the same file).
 */
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: { port: { type: 'string' }, 'body-file': { type: 'string' }, 'fields-file': { type: 'string' } },
})
const port = Number(values.port)
if (!Number.isInteger(port) || values['body-file'] === undefined)
  throw new Error('reference: --port and --body-file are required')

const body = readFileSync(values['body-file'])
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) }

/** The service's fields, flat, and the index of the request id's value in them (0: none to make). */
const serviceFields =
  values['fields-file'] === undefined
    ? undefined
    : (JSON.parse(readFileSync(values['fields-file'], 'utf8')) as string[])
const idAt = serviceFields === undefined ? -1 : serviceFields.indexOf('x-request-id') + 1

const server = createServer((req, res) => {
  // Drain any request body (MCP POSTs) so keep-alive connections stay usable.
  req.resume()
  if (serviceFields === undefined) res.writeHead(200, headers)
  else {
    const fields = serviceFields.slice()
    if (idAt > 0) fields[idAt] = randomUUID()
    res.writeHead(200, fields)
  }
  res.end(body)
})
server.keepAliveTimeout = 5_000 // the service's value
server.listen(port, '127.0.0.1')
process.on('SIGTERM', () => server.close(() => process.exit(0)))
process.on('SIGINT', () => server.close(() => process.exit(0)))
