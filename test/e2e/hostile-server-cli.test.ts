/**
 * The CLI against a server that misbehaves on purpose (test/support/hostile-server.ts), each case a
 * finding of issue 43: endless bodies and lines, bytes dripped, a feed that loops, a malformed feed,
 * SIGTERM during a dump. Each run must end on its own, within bounded memory, with a non-zero exit
 * and an error naming the limit or the field, having written nothing outside its output (the mirror's
 * folder, or the file asked for). The built CLI runs (`npm run build` first).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli-process.js'
import {
  catalogueBody,
  drip,
  endlessFeed,
  endlessJson,
  endlessLine,
  endlessRecords,
  feedPage,
  sendJson,
  snapshotOf,
  startHostileServer,
  stuckFeed,
  type HostileServer,
} from '../support/hostile-server.js'

let work: string
const servers: HostileServer[] = []
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'hostile-cli-'))
})
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
  rmSync(work, { recursive: true, force: true })
})
const hostile = async (...args: Parameters<typeof startHostileServer>) => {
  const server = await startHostileServer(...args)
  servers.push(server)
  return server
}
/** What the working folder holds, recursively: nothing but what the command was asked to write. */
const written = (dir = work): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()

/** Peak memory a command may take: Node and the CLI take about 60 MiB; an unbounded body takes gigabytes. */
const MEMORY_BOUND_MiB = 400

describe('size limits', () => {
  it('an endless catalogue stops at --max-response-bytes, with an error naming the limit', async () => {
    const server = await hostile({ catalogue: endlessJson() })
    const run = await runCli(['catalogue', '--base-url', server.api, '--max-response-bytes', '2M'], {
      cwd: work,
    })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/more than 2 MiB \(the limit maxResponseBytes\).*--max-response-bytes/)
    expect(run.peakRssMiB).toBeLessThan(MEMORY_BOUND_MiB)
    expect(written()).toEqual([])
  })

  it('the default limit stops an endless catalogue too', async () => {
    const server = await hostile({ catalogue: endlessJson() })
    // Given as an address, not an API root: the lookup of the API root is bounded the same way.
    const run = await runCli(['catalogue', '--base-url', server.url], { cwd: work })
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(/more than 64 MiB \(the limit maxResponseBytes\)/)
    expect(run.stderr).not.toMatch(/heap|allocation failed/i)
    expect(run.peakRssMiB).toBeLessThan(MEMORY_BOUND_MiB)
  })

  it('an endless download of valid records stops at the records the catalogue announced, and leaves no .partial', async () => {
    const server = await hostile({ download: endlessRecords() })
    const run = await runCli(['dump', '--base-url', server.api, '--out', 'all.ndjson'], { cwd: work })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/more than 10003 records \(the limit maxDownloadRecords\)/)
    expect(run.peakRssMiB).toBeLessThan(MEMORY_BOUND_MiB)
    expect(written()).toEqual([])
  })

  it('an endless download under a catalogue announcing any count stops at --max-download-bytes', async () => {
    const server = await hostile({
      catalogue: sendJson(catalogueBody(1e12)),
      download: endlessRecords(),
    })
    const run = await runCli(
      ['dump', '--base-url', server.api, '--out', 'all.ndjson', '--max-download-bytes', '8M'],
      { cwd: work },
    )
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/more than 8 MiB \(the limit maxDownloadBytes\).*--max-download-bytes/)
    expect(run.peakRssMiB).toBeLessThan(MEMORY_BOUND_MiB)
    expect(written()).toEqual([])
  })

  it('one endless line stops at --max-line-bytes, for dump and for sync', async () => {
    const server = await hostile({ download: endlessLine() })
    const dump = await runCli(['dump', '--base-url', server.api, '--max-line-bytes', '1M'], { cwd: work })
    expect(dump.code).toBe(1)
    expect(dump.stderr).toMatch(/line 1 of the download holds more than 1 MiB \(the limit maxLineBytes\)/)
    expect(dump.peakRssMiB).toBeLessThan(MEMORY_BOUND_MiB)
    const sync = await runCli(['sync', 'mirror', '--base-url', server.api, '--max-line-bytes', '1M'], {
      cwd: work,
    })
    expect(sync.code).toBe(1)
    expect(sync.stderr).toMatch(/the limit maxLineBytes/)
    expect(written()).toEqual([])
  })

  it('the default line limit stops one endless line', async () => {
    const server = await hostile({ download: endlessLine() })
    const run = await runCli(['dump', '--base-url', server.api, '--out', 'all.ndjson'], { cwd: work })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/more than 8 MiB \(the limit maxLineBytes\)/)
    expect(run.peakRssMiB).toBeLessThan(MEMORY_BOUND_MiB)
    expect(written()).toEqual([])
  })
})

describe('time limits', () => {
  it('an answer silent longer than --idle-timeout is given up', async () => {
    const server = await hostile({ catalogue: drip(JSON.stringify(catalogueBody(3)), 2_000) })
    const run = await runCli(['catalogue', '--base-url', server.api, '--idle-timeout', '0.5'], { cwd: work })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/sent nothing for 500 ms \(the limit idleTimeoutMs\).*--idle-timeout/)
  })

  it('an answer dripped a byte at a time is given up at --timeout', async () => {
    const server = await hostile({ catalogue: drip(JSON.stringify(catalogueBody(3)), 100) })
    const run = await runCli(['catalogue', '--base-url', server.api, '--timeout', '1'], { cwd: work })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/did not answer whole within 1 s \(the limit timeoutMs\).*--timeout/)
  })

  it('a download dripped a byte at a time is given up at --download-timeout, its .partial removed', async () => {
    const snapshot = snapshotOf(3)
    const server = await hostile({
      download: drip(snapshot.text, 50, { 'content-type': 'application/x-ndjson; charset=utf-8' }),
    })
    const run = await runCli(
      ['dump', '--base-url', server.api, '--out', 'all.ndjson', '--download-timeout', '1'],
      { cwd: work },
    )
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/kept its download waiting more than 1 s \(the limit downloadTimeoutMs\)/)
    expect(written()).toEqual([])
  })
})

describe('sync against a change feed that loops', () => {
  /** A mirror of the hostile server's snapshot, made by a first sync. */
  async function mirrorOf(server: HostileServer): Promise<void> {
    const first = await runCli(['sync', 'mirror', '--base-url', server.api], { cwd: work })
    expect(first.code, first.stderr).toBe(0)
  }

  it('a cursor that repeats is an error, after a handful of requests', async () => {
    const server = await hostile({ changes: stuckFeed() })
    await mirrorOf(server)
    const before = server.requests.length
    const run = await runCli(['sync', 'mirror', '--base-url', server.api], { cwd: work })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /the change feed of .* does not advance: page 2 gives again the cursor "next": "cursor-1"/,
    )
    expect(server.requests.length - before).toBeLessThanOrEqual(3)
    expect(written()).toEqual(['mirror', 'mirror/facts.ndjson', 'mirror/sync.json'])
  })

  it('a feed of new ids forever stops being read at --download-above, and the snapshot is downloaded instead', async () => {
    const server = await hostile({ changes: endlessFeed(5) })
    await mirrorOf(server)
    const before = server.requests.length
    const run = await runCli(['sync', 'mirror', '--base-url', server.api, '--download-above', '20'], {
      cwd: work,
    })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toMatch(
      /downloading every record again: applying the changes would take 2\d requests or more, over downloadAbove \(20\)/,
    )
    // At most 20 requests of feed and reads, then the catalogue and the download.
    const sent = server.requests.slice(before).map((r) => r.path)
    expect(sent.length).toBeLessThanOrEqual(22)
    expect(sent.slice(-2)).toEqual(['/api/v1/?po_live=1', '/api/v1/facts.ndjson'])
    expect(written()).toEqual(['mirror', 'mirror/facts.ndjson', 'mirror/sync.json'])
  })

  it('paces its requests within the quota even when no 429 comes, and leaves the mirror whole on SIGTERM', async () => {
    const server = await hostile({ changes: endlessFeed(1) })
    await mirrorOf(server)
    const before = server.requests.length
    const run = await runCli(['sync', 'mirror', '--base-url', server.api, '--download-above', '100000'], {
      cwd: work,
      onStart: (child) => setTimeout(() => child.kill('SIGTERM'), 3_000),
    })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/stopped by SIGTERM; mirror was left as it was/)
    // 120 a minute: a burst of 10, then one every 0.54 s. Unpaced, it sent about 1 400 a second.
    const sent = server.requests.slice(before)
    const seconds = (sent.at(-1)!.at - sent[0]!.at) / 1000
    expect(sent.length).toBeLessThanOrEqual(10 + Math.ceil(seconds / 0.54) + 1)
    expect(sent.length).toBeGreaterThan(3)
    expect(written()).toEqual(['mirror', 'mirror/facts.ndjson', 'mirror/sync.json'])
  })

  // One test per malformed page: each runs the CLI twice (a mirror, then `sync`), and ten runs in one
  // test took 30 s on a machine kept busy by other work (a wall-clock bound in disguise).
  it.each<[string, unknown, RegExp]>([
    [
      'a change that is not an object',
      { ...feedPage([], null), changes: [null] },
      /"changes\[0\]" must be an object/,
    ],
    ['no publication', { ...feedPage([], null), publication: null }, /"publication" must be an object/],
    [
      'an unknown kind of change',
      feedPage([{ id: 'fait-1', change: 'moved' }], null),
      /"changes\[0\]\.change" must be "added", "changed" or "removed"/,
    ],
    [
      'a cursor that is a number',
      { ...feedPage([], null), next: 42 },
      /"next" must be a non-empty string or null/,
    ],
    ['a page that is an array', [], /"\(the page\)" must be a JSON object/],
  ])('a malformed feed is an error naming the field: %s', async (_case, page, message) => {
    const server = await hostile({ changes: sendJson(page) })
    await mirrorOf(server)
    const run = await runCli(['sync', 'mirror', '--base-url', server.api], { cwd: work })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(message)
    expect(run.stderr).not.toMatch(/Cannot read properties/)
  })

  it('many changes are one download, not one request each', async () => {
    const before = snapshotOf(264)
    const server = await hostile(
      {
        changes: sendJson(
          feedPage(
            Array.from({ length: 264 }, (_, i) => ({
              id: `fait-${(i + 1).toString(16).padStart(16, '0')}`,
              change: 'changed',
            })),
            null,
            { id: '1', checksum: before.checksum, records: 264 },
          ),
        ),
      },
      before,
    )
    await mirrorOf(server)
    const count = server.requests.length
    const run = await runCli(['sync', 'mirror', '--base-url', server.api], { cwd: work })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^mirror: publication 1, 264 records: downloaded 264 records in [\d.]+ s\n$/)
    expect(server.requests.slice(count).map((r) => r.path)).toEqual([
      '/api/v1/changes?since=1&limit=1000',
      '/api/v1/?po_live=1',
      '/api/v1/facts.ndjson',
    ])
  })
})

describe('signals', () => {
  it('dump --out removes its .partial file on SIGTERM as on SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const server = await hostile({
        download: drip(snapshotOf(50).text, 5, { 'content-type': 'application/x-ndjson; charset=utf-8' }),
      })
      const out = join(work, signal)
      mkdirSync(out)
      const run = await runCli(['dump', '--base-url', server.api, '--out', 'all.ndjson'], {
        cwd: out,
        onStart: (child) => {
          const poll = setInterval(() => {
            if (readdirSync(out).some((name) => name.endsWith('.partial'))) {
              clearInterval(poll)
              child.kill(signal)
            }
          }, 20)
          child.on('close', () => clearInterval(poll))
        },
      })
      expect(run.code, run.stderr).toBe(1)
      expect(run.stderr).toBe(
        `reference-records dump: ${signal === 'SIGINT' ? 'interrupted' : 'stopped by SIGTERM'}; all.ndjson was not written\n`,
      )
      expect(readdirSync(out)).toEqual([])
    }
  })
})
