import { describe, expect, it } from 'vitest'
import { backupName, backupTakenAt, parseS3Address } from '#/server/backups/backup-store'
import { backupsToRemove } from '#/server/backups/retention'

const at = (text: string) => ({ name: text, takenAt: new Date(text) })

describe('which backups the schedule keeps', () => {
  it('keeps the newest of each of the last 7 days and of each of the last 4 weeks', () => {
    // Two a day for 60 days, 03:20 and 15:20 UTC, up to Monday 2026-12-07.
    const backups = Array.from({ length: 120 }, (_, index) => {
      const day = new Date(Date.UTC(2026, 11, 7) - Math.floor(index / 2) * 86_400_000)
      day.setUTCHours(index % 2 === 0 ? 15 : 3, 20)
      return at(day.toISOString())
    })
    const now = new Date('2026-12-07T16:00:00Z')
    const removed = new Set(backupsToRemove(backups, now))
    const kept = backups.filter((backup) => !removed.has(backup)).map((backup) => backup.name)
    expect(kept).toEqual([
      // The last 7 days, the newest of each; those of 12-07 and 12-06 are also the newest of their weeks (Mondays
      // 12-07 and 11-30).
      '2026-12-07T15:20:00.000Z',
      '2026-12-06T15:20:00.000Z',
      '2026-12-05T15:20:00.000Z',
      '2026-12-04T15:20:00.000Z',
      '2026-12-03T15:20:00.000Z',
      '2026-12-02T15:20:00.000Z',
      '2026-12-01T15:20:00.000Z',
      // The newest of the two weeks before (Sundays end the weeks of Mondays 11-23 and 11-16): four weeks in all.
      '2026-11-29T15:20:00.000Z',
      '2026-11-22T15:20:00.000Z',
    ])
  })

  it('never removes the newest backup, nor one dated after now', () => {
    const old = at('2020-01-01T00:00:00.000Z')
    const future = at('2030-01-01T00:00:00.000Z')
    expect(backupsToRemove([old], new Date('2026-12-07T00:00:00Z'), { daily: 0, weekly: 0 })).toEqual([])
    expect(backupsToRemove([old, future], new Date('2026-12-07T00:00:00Z'), { daily: 0, weekly: 0 })).toEqual([])
  })

  it('names backups so that they sort by time and say when they were taken', () => {
    const taken = new Date('2026-12-07T03:20:05.123Z')
    expect(backupName(taken)).toBe('hatch-backup-20261207T032005123Z')
    expect(backupTakenAt(backupName(taken))).toEqual(taken)
    expect(backupTakenAt('hatch-backup-20261207T032005123Z.partial')).toBeUndefined()
    expect(backupTakenAt('notes.txt')).toBeUndefined()
  })

  it('reads s3:// addresses and leaves folders alone', () => {
    expect(parseS3Address('s3://my-backups/hatch/nightly/')).toEqual({ bucket: 'my-backups', prefix: 'hatch/nightly' })
    expect(parseS3Address('s3://my-backups')).toEqual({ bucket: 'my-backups', prefix: '' })
    expect(parseS3Address('/mnt/backups')).toBeUndefined()
    expect(parseS3Address('s3://Bad_Bucket/x')).toBeUndefined()
  })
})
