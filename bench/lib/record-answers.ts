/**
 * Records the service's answers to every request of a mix, byte for byte, for the replay floor
 * (bench/targets/replay.ts). node:http rather than fetch: its `rawHeaders` keep the service's field
 * names, order and values as sent, and it adds no Accept-Encoding the mix does not send.
 */
import { request } from 'node:http'
import type { MixRequest } from './mix-file.js'

/** One recorded answer, as the replay server loads it. */
export type RecordedAnswer = {
  key: string
  status: number
  /** The service's header fields, flat (name, value, …), as `writeHead` takes them. */
  fields: string[]
  bodyBase64: string
}

/** What tells two requests of the mixes apart: method, target, the ETag revalidated, and the body. */
export const answerKey = (method: string, url: string, ifNoneMatch: string, body: string) =>
  `${method} ${url}\n${ifNoneMatch}\n${body}`

/** Fields Node's server adds itself to every answer (the replay's Node adds them again). */
const NODE_OWN_FIELDS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding'])

/** The service's fields from node:http's flat `rawHeaders`, without those Node adds itself. */
export function serviceFields(rawHeaders: readonly string[]): string[] {
  const out: string[] = []
  for (let i = 0; i + 1 < rawHeaders.length; i += 2)
    if (!NODE_OWN_FIELDS.has(rawHeaders[i]!.toLowerCase())) out.push(rawHeaders[i]!, rawHeaders[i + 1]!)
  return out
}

function recordOne(base: string, r: MixRequest): Promise<RecordedAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(base + r.path, { method: r.method, headers: r.headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('error', reject)
      res.on('end', () => {
        const inm = r.headers?.['If-None-Match'] ?? ''
        resolve({
          key: answerKey(r.method, r.path, inm, r.body ?? ''),
          status: res.statusCode!,
          fields: serviceFields(res.rawHeaders),
          bodyBase64: Buffer.concat(chunks).toString('base64'),
        })
      })
    })
    req.on('error', reject)
    req.end(r.body)
  })
}

/** The service's answer to each distinct request of `requests`, in order. */
export async function recordAnswers(
  base: string,
  requests: readonly MixRequest[],
): Promise<RecordedAnswer[]> {
  const out = new Map<string, RecordedAnswer>()
  for (const r of requests) {
    const answer = await recordOne(base, r)
    if (!out.has(answer.key)) out.set(answer.key, answer)
  }
  return [...out.values()]
}
