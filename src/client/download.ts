/**
 * Reading the service's bulk download (the catalogue's `links.download`): one response holding
 * every record of one snapshot, one JSON record per line. The body is read as it arrives, line by
 * line, so a large catalogue never sits whole in memory. A body that ends mid-line, or a line that
 * is not a JSON object, throws rather than yield a silently short listing.
 */
import { RecordsConnectionError, UnexpectedResponseError } from './errors.js'
import type { Fact } from './wire.js'

/** Yields the records of an NDJSON response body, in the order sent. */
export async function* readNdjson(
  response: Response,
  url: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<Fact> {
  if (response.body === null) return
  // A reader rather than `for await`: not every browser makes a ReadableStream async-iterable.
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let pending = ''
  let line = 0
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>
      try {
        chunk = await reader.read()
      } catch (err) {
        throw signal?.aborted ? signal.reason : new RecordsConnectionError(url, err)
      }
      pending += chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true })
      let newline: number
      while ((newline = pending.indexOf('\n')) !== -1) {
        const text = pending.slice(0, newline)
        pending = pending.slice(newline + 1)
        line++
        if (text.trim() !== '') yield parseLine(text, line, url)
      }
      if (chunk.done) break
    }
  } finally {
    reader.releaseLock()
  }
  if (pending.trim() !== '') {
    throw new UnexpectedResponseError(
      200,
      'invalid_response',
      `${url}: the download ended in the middle of line ${line + 1}; the listing is incomplete, retry`,
      undefined,
      url,
    )
  }
}

function parseLine(text: string, line: number, url: string): Fact {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    value = undefined
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UnexpectedResponseError(
      200,
      'invalid_response',
      `${url}: line ${line} of the download is not a JSON record`,
      undefined,
      url,
    )
  }
  return value as Fact
}
