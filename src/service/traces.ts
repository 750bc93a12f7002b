/**
 * OpenTelemetry traces, sent over OTLP/HTTP (JSON) when an endpoint is set (config.traces). The
 * composition root imports this module with a dynamic `import()` only then, so a service without
 * an endpoint never loads the OpenTelemetry packages, and its request path pays one
 * `hasSubscribers` check per publication (http/trace-channels.ts).
 *
 * Nothing here sits on the request path: spans are made from what is published on
 * `node:diagnostics_channel` — Node's own `http.server.request.start` opens a request's server
 * span (its parent the request's `traceparent` header), the HTTP adapter's completion names it by
 * route template and ends it, its quota decision adds the outcome — and from the MCP handler's
 * tool-call observer, whose span's parent is the `traceparent` the client sent in the call's
 * `_meta` (linked to the request's span), or the request's span when it sent none.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import {
  DiagLogLevel,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  defaultTextMapGetter,
  diag,
  trace,
  type Attributes,
  type Link,
  type Span,
} from '@opentelemetry/api'
import { W3CTraceContextPropagator, hrTime } from '@opentelemetry/core'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources'
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
} from '@opentelemetry/sdk-trace'
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
} from '@opentelemetry/semantic-conventions'
import type { Config } from '../config.js'
import type { Log } from '../core/log.js'
import { limitRepeats } from '../core/log.js'
import { UNMATCHED_ROUTE } from '../http/respond.js'
import {
  QUOTA_DECIDED_CHANNEL,
  REQUEST_COMPLETED_CHANNEL,
  type QuotaDecidedMessage,
  type RequestCompletedMessage,
} from '../http/trace-channels.js'
import type { ToolCallOutcome } from '../mcp/tool-calls.js'
import { toolCallAttributes, traceContextOfCall } from './trace-attributes.js'

/** Node's own channel, published as a request reaches the server, before its `request` event. */
const REQUEST_START_CHANNEL = 'http.server.request.start'
/** A flush at shutdown waits this long at most (a collector that is down must not hold the exit). */
const EXPORT_TIMEOUT_MS = 2_000
/** Methods named as themselves (the HTTP semantic conventions' list); any other is `_OTHER`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'CONNECT', 'TRACE'])

type RequestTrace = { span: Span; startTime: ReturnType<typeof hrTime>; method: string; ended: boolean }

export type Tracing = {
  /** Traces the requests of `server` from now on (the service's own: not a probe's, nor a test's receiver). */
  traceServer(server: Server): void
  /** Records one MCP tools/call (the MCP handler's ToolCallObserver, beside the metrics). */
  toolCall(tool: string, outcome: ToolCallOutcome, request: IncomingMessage, message: unknown): void
  /** Stops tracing and exports the spans still held; at most EXPORT_TIMEOUT_MS on a collector that does not answer. */
  close(): Promise<void>
}

export function startTracing(
  settings: NonNullable<Config['traces']>,
  deps: { version: string; log: Log; quotaStore: () => string | undefined },
): Tracing {
  // Export failures (a collector down or refusing) are the operator's to see, a few a minute at most.
  const warn = limitRepeats((fields, message) => deps.log.warn(fields, message))
  diag.setLogger(
    {
      error: (message) => warn({ problem: message }, 'traces: export failed'),
      warn: (message) => warn({ problem: message }, 'traces: export failed'),
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    DiagLogLevel.WARN,
  )
  const provider = new TracerProvider({
    sampler: samplerOf(settings.sampler),
    resource: defaultResource().merge(
      resourceFromAttributes({
        [ATTR_SERVICE_NAME]: settings.serviceName,
        [ATTR_SERVICE_VERSION]: deps.version,
      }),
    ),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: settings.url, timeoutMillis: EXPORT_TIMEOUT_MS }),
        exportTimeoutMillis: EXPORT_TIMEOUT_MS,
      }),
    ],
  })
  const tracer = provider.getTracer('reference-records', deps.version)
  const propagator = new W3CTraceContextPropagator()
  const requests = new WeakMap<IncomingMessage, RequestTrace>()
  let traced: Server | undefined

  const end = (t: RequestTrace, route: string | undefined, status: number) => {
    t.ended = true
    const matched = route !== undefined && route !== UNMATCHED_ROUTE
    // The semantic conventions' name: the method and the route template, never the raw path.
    t.span.updateName(matched ? `${t.method} ${route}` : t.method)
    if (matched) t.span.setAttribute(ATTR_HTTP_ROUTE, route)
    t.span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status)
    // A server span is in error for the server's faults only (5xx), not for a client's 4xx.
    if (status >= 500) {
      t.span.setAttribute(ATTR_ERROR_TYPE, String(status))
      t.span.setStatus({ code: SpanStatusCode.ERROR })
    }
    // Ended on the clock it started on: the SDK's own end time, taken from Date when a start time
    // is given, is rounded to the millisecond and may fall before a fast answer's start.
    t.span.end(hrTime())
  }

  const onRequestStart = (message: unknown) => {
    const { request, response, server } = message as {
      request: IncomingMessage
      response: ServerResponse
      server: Server
    }
    if (server !== traced) return
    const method = METHODS.has(request.method ?? '') ? request.method! : '_OTHER'
    const startTime = hrTime()
    const parent = propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter)
    const span = tracer.startSpan(
      method,
      { kind: SpanKind.SERVER, startTime, attributes: { [ATTR_HTTP_REQUEST_METHOD]: method } },
      parent,
    )
    // A span the sampler left out records nothing: it is kept only as the parent of a tool call's.
    const t: RequestTrace = { span, startTime, method, ended: !span.isRecording() }
    requests.set(request, t)
    if (t.ended) return
    // An answer the adapter never reported (the client left first): its span still ends.
    response.once('close', () => {
      if (!t.ended) end(t, undefined, response.statusCode)
    })
  }
  const onRequestCompleted = (message: unknown) => {
    const { request, route, status } = message as RequestCompletedMessage
    const t = requests.get(request)
    if (t !== undefined && !t.ended) end(t, route, status)
  }
  const onQuotaDecided = (message: unknown) => {
    const { request, allowed } = message as QuotaDecidedMessage
    const t = requests.get(request)
    if (t === undefined) return
    t.span.setAttributes({
      'reference_records.quota.outcome': allowed ? 'admitted' : 'refused',
      'reference_records.quota.store': deps.quotaStore() ?? 'none',
    })
  }
  subscribe(REQUEST_START_CHANNEL, onRequestStart)
  subscribe(REQUEST_COMPLETED_CHANNEL, onRequestCompleted)
  subscribe(QUOTA_DECIDED_CHANNEL, onQuotaDecided)

  return {
    traceServer(server) {
      traced = server
    },
    toolCall(tool, outcome, request, message) {
      const http = requests.get(request)
      const remote = traceContextOfCall(message, propagator)
      const parent = remote ?? (http === undefined ? ROOT_CONTEXT : trace.setSpan(ROOT_CONTEXT, http.span))
      // Called from the client's own trace: that is the parent, and the request's span is linked.
      const links: Link[] =
        remote !== undefined && http !== undefined ? [{ context: http.span.spanContext() }] : []
      const attributes: Attributes = toolCallAttributes(tool, outcome, request)
      const span = tracer.startSpan(
        `tools/call ${tool}`,
        { kind: SpanKind.SERVER, startTime: http?.startTime, links, attributes },
        parent,
      )
      if (outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR })
      span.end(hrTime())
    },
    async close() {
      traced = undefined
      unsubscribe(REQUEST_START_CHANNEL, onRequestStart)
      unsubscribe(REQUEST_COMPLETED_CHANNEL, onRequestCompleted)
      unsubscribe(QUOTA_DECIDED_CHANNEL, onQuotaDecided)
      await provider.shutdown()
      diag.disable()
    },
  }
}

/** The sampler OTEL_TRACES_SAMPLER names, as the OpenTelemetry SDK configuration defines each. */
function samplerOf({ name, ratio }: NonNullable<Config['traces']>['sampler']): Sampler {
  const root = name.endsWith('always_on')
    ? new AlwaysOnSampler()
    : name.endsWith('always_off')
      ? new AlwaysOffSampler()
      : new TraceIdRatioBasedSampler(ratio)
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root
}
