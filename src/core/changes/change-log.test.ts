import { expect, it } from 'vitest'
import { ApiError } from '../errors.js'
import { readChanges, type ChangeHistory, type PublicationChanges, type RecordChange } from './change-log.js'

const change = (id: string, kind: RecordChange['change'] = 'changed'): RecordChange => ({
  id,
  change: kind,
  modifiedAt: null,
})
const publication = (id: string, minute: number, changes: RecordChange[]): PublicationChanges => ({
  publication: id,
  publishedAt: `2026-11-20T09:${String(minute).padStart(2, '0')}:00.000Z`,
  changes,
})
const history = (...publications: PublicationChanges[]): ChangeHistory => ({
  publications,
  checksum: '0'.repeat(64),
  records: 3,
})

// 'a' is the base; 'c' changed nothing; 'a' comes back as the newest (a file's records restored).
const kept = history(
  publication('a', 0, [change('fait-0000000000000009')]),
  publication('b', 1, [change('fait-0000000000000001', 'added'), change('fait-0000000000000002', 'removed')]),
  publication('c', 2, []),
  publication('d', 3, [change('fait-0000000000000003')]),
)
const ids = (page: ReturnType<typeof readChanges>) =>
  page.changes.map((c) => `${c.publication.publication}:${c.change.id.slice(-1)}`)

it('never serves the base’s changes: what came before it is unknown', () => {
  expect(ids(readChanges(kept, { since: { publication: 'a' } }, 10))).toEqual(['b:1', 'b:2', 'd:3'])
})

it('pages with a cursor across publications, skipping those that changed nothing', () => {
  const first = readChanges(kept, { since: { publication: 'a' } }, 2)
  expect(ids(first)).toEqual(['b:1', 'b:2'])
  // The page ended with b: the next one starts in d, not in the empty c.
  expect(first.next).toEqual({ publication: 'd', offset: 0 })
  const second = readChanges(kept, { cursor: first.next! }, 2)
  expect(ids(second)).toEqual(['d:3'])
  expect(second.next).toBeUndefined()
  expect(readChanges(kept, { since: { publication: 'a' } }, 1).next).toEqual({ publication: 'b', offset: 1 })
})

it('reads a time as the publications after it, and the latest occurrence of a repeated id', () => {
  expect(ids(readChanges(kept, { since: { time: '2026-11-20T09:01:30Z' } }, 10))).toEqual(['d:3'])
  expect(ids(readChanges(kept, { since: { time: '2026-11-20T09:00:00Z' } }, 10))).toEqual([
    'b:1',
    'b:2',
    'd:3',
  ])
  const restored = history(...kept.publications, publication('a', 4, [change('fait-0000000000000003')]))
  expect(ids(readChanges(restored, { since: { publication: 'a' } }, 10))).toEqual([])
  expect(readChanges(restored, { since: { publication: 'a' } }, 10).latest.publication).toBe('a')
})

it('is gone for an unknown publication, a time before the base, or a cursor into the base', () => {
  const gone = (from: Parameters<typeof readChanges>[1]) => {
    try {
      readChanges(kept, from, 10)
    } catch (err) {
      return err instanceof ApiError ? `${err.code}: ${err.message}` : err
    }
    return 'answered'
  }
  expect(gone({ since: { publication: 'z' } })).toMatch(
    /^gone: Query parameter "since": publication "z" is not in the kept history \(the oldest kept is "a"/,
  )
  expect(gone({ since: { time: '2026-11-20T08:59:59Z' } })).toMatch(/^gone: .*older than the kept history/)
  expect(gone({ cursor: { publication: 'a', offset: 0 } })).toMatch(/^gone: Query parameter "cursor"/)
})
