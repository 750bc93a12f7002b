import { describe, expect, it } from 'vitest'
import { RecordsClient } from './client.js'
import { readNdjson } from './download.js'
import { ResponseLimitError } from './errors.js'
import { DEFAULT_LIMITS, ExchangeClock, resolveLimits, type Limits } from './limits.js'
import { resolveOptions } from './options.js'

const MiB = 1024 * 1024

/** A body made of `chunks()` (until it returns undefined), as a fetch Response would stream it. */
function streamOf(next: () => Uint8Array | undefined, headers: Record<string, string> = {}): Response {
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = next()
      if (chunk === undefined) controller.close()
      else controller.enqueue(chunk)
    },
  })
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json', ...headers } })
}

/** A Uint8Array that counts the bytes its `indexOf` looks at, to prove each byte is scanned once. */
class CountingBytes extends Uint8Array {
  static scanned = 0
  override indexOf(value: number, from = 0): number {
    const at = super.indexOf(value, from)
    CountingBytes.scanned += (at === -1 ? this.length : at + 1) - from
    return at
  }
}

const reading = (limits: Partial<Limits> = {}, maxRecords?: number) => {
  const resolved = { ...DEFAULT_LIMITS, ...limits }
  return {
    url: 'http://127.0.0.1/api/v1/facts.ndjson',
    signal: undefined,
    clock: new ExchangeClock(resolved, 'http://127.0.0.1/api/v1/facts.ndjson'),
    limits: resolved,
    maxRecords,
  }
}
const collect = async (records: AsyncGenerator<unknown>) => {
  const all: unknown[] = []
  for await (const record of records) all.push(record)
  return all
}

describe('the limits', () => {
  it('default to values far above what the service sends, and each can be set, 0 turning it off', () => {
    expect(resolveOptions({}).limits).toEqual({
      maxResponseBytes: 64 * MiB,
      maxLineBytes: 8 * MiB,
      maxDownloadBytes: 32 * 1024 * MiB,
      timeoutMs: 60_000,
      idleTimeoutMs: 30_000,
      downloadTimeoutMs: 3_600_000,
    })
    expect(resolveOptions({ maxLineBytes: 1024, timeoutMs: 0 }).limits).toMatchObject({
      maxLineBytes: 1024,
      timeoutMs: 0,
      maxResponseBytes: 64 * MiB,
    })
    expect(() => resolveLimits({ idleTimeoutMs: -1 })).toThrow(/idleTimeoutMs must be a whole number ≥ 0/)
    expect(() => resolveLimits({ maxResponseBytes: 1.5 })).toThrow(/maxResponseBytes must be/)
  })

  it('the default stops an endless JSON answer at 64 MiB', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(MiB))
    let sent = 0
    const client = new RecordsClient({
      baseUrl: 'http://127.0.0.1:1/api/v1',
      fetch: async () => streamOf(() => (sent++ === 0 ? new TextEncoder().encode('{"a":"') : chunk)),
    })
    const error = await client.catalogue().catch((err: unknown) => err)
    expect(error).toBeInstanceOf(ResponseLimitError)
    expect(error).toMatchObject({ limit: 'maxResponseBytes', value: 64 * MiB })
    expect((error as Error).message).toMatch(/more than 64 MiB \(the limit maxResponseBytes\)/)
    expect(sent).toBeLessThanOrEqual(66)
  })

  it('refuses an answer that declares a length past the limit before reading it', async () => {
    const client = new RecordsClient({
      baseUrl: 'http://127.0.0.1:1/api/v1',
      maxResponseBytes: 1000,
      fetch: async () => streamOf(() => undefined, { 'content-length': '5000' }),
    })
    await expect(client.catalogue()).rejects.toThrow(
      /declares more than 1000 bytes \(the limit maxResponseBytes\)/,
    )
  })

  it('gives up an answer silent longer than idleTimeoutMs, and one slower than timeoutMs', async () => {
    const silent = new RecordsClient({
      baseUrl: 'http://127.0.0.1:1/api/v1',
      idleTimeoutMs: 50,
      fetch: (_input, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
        ),
    })
    await expect(silent.catalogue()).rejects.toMatchObject({ limit: 'idleTimeoutMs', value: 50 })
    let sent = 0
    const dripping = new RecordsClient({
      baseUrl: 'http://127.0.0.1:1/api/v1',
      timeoutMs: 200,
      idleTimeoutMs: 1000,
      fetch: async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            async pull(controller) {
              await new Promise((resolve) => setTimeout(resolve, 20))
              controller.enqueue(new TextEncoder().encode(sent++ === 0 ? '{"a":"' : 'x'))
            },
          }),
        ),
    })
    await expect(dripping.catalogue()).rejects.toMatchObject({ limit: 'timeoutMs', value: 200 })
  })
})

describe('readNdjson', () => {
  it('scans each byte once: an endless line costs linear time, and stops at maxLineBytes', async () => {
    CountingBytes.scanned = 0
    const chunkSize = 4096
    let chunks = 0
    const response = streamOf(() => {
      chunks++
      const bytes = new CountingBytes(chunkSize).fill(0x78) // 'x', never a newline
      if (chunks === 1) bytes.set(new TextEncoder().encode('{"id":"'))
      return bytes
    })
    const error = await collect(readNdjson(response, reading({ maxLineBytes: 4 * MiB }))).catch(
      (err: unknown) => err,
    )
    expect(error).toMatchObject({ limit: 'maxLineBytes', value: 4 * MiB })
    expect((error as Error).message).toMatch(/line 1 of the download holds more than 4 MiB/)
    // Re-scanning the pending line at each chunk would look at about chunks² × chunkSize / 2 bytes (2 GiB here).
    expect(CountingBytes.scanned).toBeLessThanOrEqual(chunks * chunkSize)
    expect(chunks).toBeGreaterThan(1000)
  })

  it('cuts lines across chunks, in any place, multi-byte characters included', async () => {
    const text = `${JSON.stringify({ id: 'a', title: 'Priorité à droite' })}\r\n\n${JSON.stringify({ id: 'b', title: '日本' })}\n`
    const bytes = new TextEncoder().encode(text)
    for (const size of [1, 2, 3, 7, bytes.length]) {
      let at = 0
      const response = streamOf(() => (at >= bytes.length ? undefined : bytes.slice(at, (at += size))))
      expect(await collect(readNdjson(response, reading()))).toEqual([
        { id: 'a', title: 'Priorité à droite' },
        { id: 'b', title: '日本' },
      ])
    }
  })

  it('refuses a download past maxDownloadBytes or the records announced, and one that ends mid-line', async () => {
    const line = new TextEncoder().encode(`${JSON.stringify({ id: 'x' })}\n`)
    await expect(
      collect(
        readNdjson(
          streamOf(() => line),
          reading({ maxDownloadBytes: 1000 }),
        ),
      ),
    ).rejects.toMatchObject({
      limit: 'maxDownloadBytes',
    })
    await expect(
      collect(
        readNdjson(
          streamOf(() => line),
          reading({}, 5),
        ),
      ),
    ).rejects.toThrow(/holds more than 5 records \(the limit maxDownloadRecords\)/)
    let sent = false
    const cut = streamOf(() =>
      sent ? undefined : ((sent = true), new TextEncoder().encode('{"id":"a"}\n{"id"')),
    )
    await expect(collect(readNdjson(cut, reading()))).rejects.toThrow(/ended in the middle of line 2/)
  })
})
