#!/usr/bin/env node
/**
 * The container's health check: exit 0 when this process's service answers `GET /readyz` with 200
 * (records loaded), 1 otherwise (not ready yet, draining, not answering within the timeout). Node
 * alone, so the image needs no shell and no curl: `HEALTHCHECK CMD ["node", "scripts/healthcheck.js"]`.
 * It asks the address the service listens on, from the same HOST and PORT variables (a wildcard
 * address is asked on loopback).
 */
/* global fetch, AbortSignal */ // Node's own, since Node 18
const WILDCARDS = new Set(['', '0.0.0.0', '::', '[::]'])
const TIMEOUT_MS = 4000

const host = (process.env.HOST ?? '').trim()
const port = (process.env.PORT ?? '').trim() || '8080'
const address = WILDCARDS.has(host)
  ? '127.0.0.1'
  : host.includes(':') && !host.startsWith('[')
    ? `[${host}]`
    : host
const url = `http://${address}:${port}/readyz`

try {
  const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) })
  const body = await res.text()
  if (res.status === 200) process.exit(0)
  console.error(`healthcheck: ${url} answered ${res.status}: ${body.slice(0, 200)}`)
} catch (err) {
  console.error(`healthcheck: ${url} did not answer: ${err instanceof Error ? err.message : String(err)}`)
}
process.exit(1)
