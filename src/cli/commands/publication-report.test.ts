import { describe, expect, it } from 'vitest'
import { describeCurrent, describePublication, formatDiff, formatSnapshots } from './publication-report.js'

const at = new Date('2026-11-20T09:00:00.000Z')
const publication = {
  publicationId: 45,
  action: 'publish' as const,
  publishedAt: at,
  snapshotId: 42,
  checksum: '1a2b3c4d5e6f7a8b9c',
  recordCount: 264,
  note: null,
}

describe('publication reports', () => {
  it('lists the first five ids of each kind of change, and counts the rest', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `page-${String(i).padStart(16, '0')}`)
    expect(
      formatDiff({ added: ids(7), changed: ['fait-643b555e754f953d'], removed: [], unchanged: 258 }),
    ).toBe(
      [
        'Changes:',
        `  +      7 added     ${ids(5).join(', ')}, … and 2 more`,
        '  ~      1 changed   fait-643b555e754f953d',
        '  -      0 removed',
        '  =    258 unchanged',
      ].join('\n'),
    )
  })
  it('says what is current and what a publication or rollback did', () => {
    expect(describeCurrent(undefined)).toBe('Current snapshot: none (nothing published yet).')
    expect(describeCurrent(publication)).toBe(
      'Current snapshot: 42 (published 2026-11-20T09:00:00.000Z, 264 records).',
    )
    // The summary line last, whatever else is said.
    expect(describePublication(publication, [30, 31])).toBe(
      'Pruned the records of snapshots 30, 31 (retention).\n' +
        'Published snapshot 42 (264 records, checksum 1a2b3c4d5e6f) at 2026-11-20T09:00:00.000Z, publication 45; replicas notified.',
    )
    expect(describePublication({ ...publication, action: 'rollback' })).toMatch(
      /^Snapshot 42 is current again \(264 records/,
    )
  })
  it('tabulates snapshots, newest first, with their state', () => {
    const base = {
      publishedAt: at,
      recordCount: 264,
      checksum: 'abcdefabcdef00',
      note: null,
      prunedAt: null,
      current: false,
      lastCurrentAt: at,
    }
    expect(
      formatSnapshots([
        { ...base, id: 12, current: true, note: 'weekly\nupdate' },
        { ...base, id: 11 },
        { ...base, id: 9, recordCount: 3, prunedAt: at },
      ]),
    ).toBe(
      [
        'ID  PUBLISHED                 RECORDS  CHECKSUM      STATE    NOTE',
        '12  2026-11-20T09:00:00.000Z      264  abcdefabcdef  current  weekly update',
        '11  2026-11-20T09:00:00.000Z      264  abcdefabcdef  kept',
        ' 9  2026-11-20T09:00:00.000Z        3  abcdefabcdef  pruned',
      ].join('\n'),
    )
    expect(formatSnapshots([])).toBe('No snapshot published yet.')
  })
})
