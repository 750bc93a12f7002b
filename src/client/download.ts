/**
 * Reading the service's bulk download (the catalogue's `links.download`): one response holding
 * every record of one snapshot, one JSON record per line. The body is read as it arrives, line by
 * line, so a large catalogue never sits whole in memory. A body that ends mid-line, or a line that
 * is not a JSON object, throws rather than yield a silently short listing; so does a download past
 * the client's limits (a line, the whole, the records announced, the time waited).
 *
 * Lines are cut in bytes (a newline byte never occurs inside a UTF-8 sequence): each chunk is
 * scanned once, and the start of a line still incomplete is kept as the chunks that hold it, so an
 * endless line costs linear time and at most `maxLineBytes` of memory.
 */
import { UnexpectedResponseError } from './errors.js'
import { sizeError, type ExchangeClock, type Limits } from './limits.js'
import { nextChunk } from './request.js'
import type { Fact } from './wire.js'

const NEWLINE = 0x0a

export type DownloadReading = {
  url: string
  signal: AbortSignal | undefined
  clock: ExchangeClock
  limits: Limits
  /** More lines than this is an error (the catalogue's count with room for a publication meanwhile); undefined: no bound. */
  maxRecords: number | undefined
}

/** Yields the records of an NDJSON response body, in the order sent. */
export async function* readNdjson(response: Response, reading: DownloadReading): AsyncGenerator<Fact> {
  const { url, signal, clock, limits, maxRecords } = reading
  if (response.body === null) return
  const declared = Number(response.headers.get('content-length') ?? NaN)
  if (limits.maxDownloadBytes !== 0 && declared > limits.maxDownloadBytes) {
    await response.body.cancel().catch(() => undefined)
    throw sizeError('maxDownloadBytes', limits.maxDownloadBytes, url, 'the download declares')
  }
  // A reader rather than `for await`: not every browser makes a ReadableStream async-iterable.
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  /** The start of the line not yet ended: the chunks' parts that hold it, and their length. */
  let pending: Uint8Array[] = []
  let pendingBytes = 0
  let received = 0
  let line = 0
  let records = 0
  const checkLine = (bytes: number) => {
    if (limits.maxLineBytes !== 0 && bytes > limits.maxLineBytes)
      throw sizeError('maxLineBytes', limits.maxLineBytes, url, `line ${line + 1} of the download holds`)
  }
  try {
    for (;;) {
      const chunk = await nextChunk(reader, url, signal, clock)
      if (clock.expired !== undefined) throw clock.expired
      if (chunk.done) break
      const bytes = chunk.value
      received += bytes.byteLength
      if (limits.maxDownloadBytes !== 0 && received > limits.maxDownloadBytes)
        throw sizeError('maxDownloadBytes', limits.maxDownloadBytes, url, 'the download holds')
      let start = 0
      for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
        checkLine(pendingBytes + end - start)
        const text = decoder.decode(joined(pending, pendingBytes, bytes.subarray(start, end)))
        pending = []
        pendingBytes = 0
        start = end + 1
        line++
        if (text.trim() === '') continue
        records++
        if (maxRecords !== undefined && records > maxRecords)
          throw sizeError('maxDownloadRecords', maxRecords, url, 'the download holds')
        yield parseLine(text, line, url)
      }
      if (start < bytes.byteLength) {
        checkLine(pendingBytes + bytes.byteLength - start)
        pending.push(bytes.subarray(start))
        pendingBytes += bytes.byteLength - start
      }
    }
  } finally {
    // Stops the transfer when the reader gives up early (an error, a limit, a caller that stopped).
    reader.cancel().catch(() => undefined)
  }
  if (decoder.decode(joined(pending, pendingBytes, new Uint8Array(0))).trim() !== '') {
    throw new UnexpectedResponseError(
      200,
      'invalid_response',
      `${url}: the download ended in the middle of line ${line + 1}; the listing is incomplete, retry`,
      undefined,
      url,
    )
  }
}

/** The pending parts and `last` as one array (no copy when there is nothing pending). */
function joined(parts: Uint8Array[], partsBytes: number, last: Uint8Array): Uint8Array {
  if (parts.length === 0) return last
  const whole = new Uint8Array(partsBytes + last.byteLength)
  let at = 0
  for (const part of [...parts, last]) {
    whole.set(part, at)
    at += part.byteLength
  }
  return whole
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
