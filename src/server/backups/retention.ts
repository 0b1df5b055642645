/** How many backups the schedule keeps: the newest of each of the last days and weeks that have one. */
export const backupRetention = { daily: 7, weekly: 4 }

/** Monday of the UTC week `at` falls in, as `YYYY-MM-DD`. */
function weekOf(at: Date): string {
  const monday = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()))
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7))
  return monday.toISOString().slice(0, 10)
}

/**
 * The backups to remove: all but the newest of each of the `daily` most recent days with a backup and of each of the
 * `weekly` most recent weeks with one (UTC). The newest backup is always kept; so is one taken after `now` (a clock
 * set back must not delete the backups it cannot place).
 */
export function backupsToRemove<Backup extends { takenAt: Date }>(
  backups: readonly Backup[],
  now: Date,
  keep: { daily: number; weekly: number } = backupRetention,
): Backup[] {
  const newestFirst = [...backups].sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime())
  const kept = new Set<Backup>()
  const days = new Set<string>()
  const weeks = new Set<string>()
  for (const backup of newestFirst) {
    if (backup.takenAt > now) {
      kept.add(backup)
      continue
    }
    const day = backup.takenAt.toISOString().slice(0, 10)
    if (!days.has(day) && days.size < keep.daily) {
      days.add(day)
      kept.add(backup)
    }
    const week = weekOf(backup.takenAt)
    if (!weeks.has(week) && weeks.size < keep.weekly) {
      weeks.add(week)
      kept.add(backup)
    }
  }
  const newestPast = newestFirst.find((backup) => backup.takenAt <= now)
  if (newestPast) kept.add(newestPast)
  return newestFirst.filter((backup) => !kept.has(backup))
}
