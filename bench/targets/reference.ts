/**
 * The reference: a bare node:http server answering every request, whatever its method and path, with
 * one pre-built buffer the size of a typical search response and only the two fields that describe
 * it. It is the most a Node process can do for that response size on this machine; the replay floor
 * (replay.ts) is what is left of it once the contract's fields and the mix's own answers are sent.
 *
 * Run: node --import tsx bench/targets/reference.ts --port 8101 --body-file search-response.json
 * (the bench saves a real search response of the service there; nginx serves the same file).
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { port: { type: 'string' }, 'body-file': { type: 'string' } } })
const port = Number(values.port)
if (!Number.isInteger(port) || values['body-file'] === undefined)
  throw new Error('reference: --port and --body-file are required')

const body = readFileSync(values['body-file'])
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) }

const server = createServer((req, res) => {
  // Drain any request body (MCP POSTs) so keep-alive connections stay usable.
  req.resume()
  res.writeHead(200, headers)
  res.end(body)
})
server.keepAliveTimeout = 5_000 // the service's value
server.listen(port, '127.0.0.1')
process.on('SIGTERM', () => server.close(() => process.exit(0)))
process.on('SIGINT', () => server.close(() => process.exit(0)))
