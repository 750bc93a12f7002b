/**
 * An OTLP/HTTP trace receiver in the test's process: a `node:http` server taking what an exporter
 * POSTs to /v1/traces as JSON (OTLP/JSON: hex ids, attributes as typed values) and keeping every span,
 * flattened, with its resource's attributes.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

type AnyValue = {
  stringValue?: string
  intValue?: number | string
  boolValue?: boolean
  doubleValue?: number
}
type KeyValue = { key: string; value: AnyValue }

export type ReceivedSpan = {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  /** OTLP's SpanKind: 2 is SERVER. */
  kind: number
  startTimeUnixNano: string
  endTimeUnixNano: string
  attributes: Record<string, string | number | boolean>
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  status: number
  links: { traceId: string; spanId: string }[]
  resource: Record<string, string | number | boolean>
}

const valueOf = (v: AnyValue) =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue ?? ''))
const attributesOf = (list: KeyValue[] = []) =>
  Object.fromEntries(list.map((kv) => [kv.key, valueOf(kv.value)]))

export type OtlpReceiver = { url: string; spans: ReceivedSpan[]; posts: number; close(): Promise<void> }

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = []
  const receiver = { spans, posts: 0 }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      if (
        req.method !== 'POST' ||
        req.url !== '/v1/traces' ||
        !/json/.test(req.headers['content-type'] ?? '')
      ) {
        res.writeHead(404).end()
        return
      }
      receiver.posts++
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans: {
          resource: { attributes: KeyValue[] }
          scopeSpans: {
            spans: (Omit<ReceivedSpan, 'attributes' | 'status' | 'resource' | 'links'> & {
              attributes?: KeyValue[]
              status?: { code?: number }
              links?: { traceId: string; spanId: string }[]
            })[]
          }[]
        }[]
      }
      for (const { resource, scopeSpans } of body.resourceSpans)
        for (const scope of scopeSpans)
          for (const span of scope.spans)
            spans.push({
              ...span,
              attributes: attributesOf(span.attributes),
              status: span.status?.code ?? 0,
              links: (span.links ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
              resource: attributesOf(resource.attributes),
            })
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  })
}
