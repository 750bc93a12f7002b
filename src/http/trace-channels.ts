/**
 * What the HTTP adapter publishes for tracing, on `node:diagnostics_channel`: a publisher checks
 * `hasSubscribers` first, so with no tracer subscribed (no OTLP endpoint set) a request costs that
 * one check and nothing else. The composition root's tracer (service/traces.ts) subscribes; Node's
 * own `http.server.request.start` tells it when each request began.
 */
import { channel } from 'node:diagnostics_channel'
import type { IncomingMessage } from 'node:http'

/** An answered request, with its route label (respond.ts) and the status sent. */
export type RequestCompletedMessage = { request: IncomingMessage; route: string; status: number }
/** A quota decision on a counted request (admission.ts). */
export type QuotaDecidedMessage = { request: IncomingMessage; allowed: boolean }

export const REQUEST_COMPLETED_CHANNEL = 'reference-records:http.request.completed'
export const QUOTA_DECIDED_CHANNEL = 'reference-records:http.quota.decided'

export const requestCompleted = channel(REQUEST_COMPLETED_CHANNEL)
export const quotaDecided = channel(QUOTA_DECIDED_CHANNEL)
