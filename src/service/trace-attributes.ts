/**
 * What an MCP tool call's span says, and the trace it was called from. The attribute names are the
 * semantic conventions' for MCP and generative-AI tools, which are still incubating: copied here, as
 * the conventions package advises, rather than imported from its `incubating` entry, which may
 * change them in a minor release.
 */
import type { IncomingMessage } from 'node:http'
import { ROOT_CONTEXT, defaultTextMapGetter, trace, type Attributes, type Context } from '@opentelemetry/api'
import type { W3CTraceContextPropagator } from '@opentelemetry/core'
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions'
import type { ToolCallOutcome } from '../mcp/tool-calls.js'

const ATTR_MCP_METHOD_NAME = 'mcp.method.name'
const ATTR_MCP_PROTOCOL_VERSION = 'mcp.protocol.version'
const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name'
const ATTR_GEN_AI_TOOL_NAME = 'gen_ai.tool.name'
/** How the call ended, as the metrics count it: ok, error (isError or a failure), invalid (refused). */
const ATTR_OUTCOME = 'reference_records.mcp.outcome'

/** A protocol revision is a date; anything else a client sends is not written into a span. */
const REVISION = /^\d{4}-\d{2}-\d{2}$/

/** The attributes of a tools/call span (`tool` is already one of the server's tools or `unknown`). */
export function toolCallAttributes(
  tool: string,
  outcome: ToolCallOutcome,
  request: IncomingMessage,
): Attributes {
  const attributes: Attributes = {
    [ATTR_MCP_METHOD_NAME]: 'tools/call',
    [ATTR_GEN_AI_OPERATION_NAME]: 'execute_tool',
    [ATTR_GEN_AI_TOOL_NAME]: tool,
    [ATTR_OUTCOME]: outcome,
  }
  const revision = request.headers['mcp-protocol-version']
  if (typeof revision === 'string' && REVISION.test(revision))
    attributes[ATTR_MCP_PROTOCOL_VERSION] = revision
  // The conventions' error types: a tool that answered isError, or a call refused as sent.
  if (outcome === 'error') attributes[ATTR_ERROR_TYPE] = 'tool_error'
  if (outcome === 'invalid') attributes[ATTR_ERROR_TYPE] = 'invalid_request'
  return attributes
}

/**
 * The W3C trace context a client sent in the call's `params._meta` (`traceparent`, `tracestate`),
 * as MCP clients propagate it, when it is valid; undefined otherwise.
 */
export function traceContextOfCall(
  message: unknown,
  propagator: W3CTraceContextPropagator,
): Context | undefined {
  const params = isObject(message) ? message.params : undefined
  const meta = isObject(params) ? params._meta : undefined
  if (!isObject(meta) || typeof meta.traceparent !== 'string') return undefined
  const carrier = {
    traceparent: meta.traceparent,
    ...(typeof meta.tracestate === 'string' ? { tracestate: meta.tracestate } : {}),
  }
  const context = propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter)
  return trace.getSpanContext(context) === undefined ? undefined : context
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
