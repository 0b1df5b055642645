import { availableParallelism } from 'node:os'
import { describe, expect, it } from 'vitest'
import { processCount } from '../../scripts/process-count.ts'

describe('how many app processes npm start runs', () => {
  const postgres = 'postgres://hatch@db/hatch'
  it('runs one per CPU on PostgreSQL, or WEB_CONCURRENCY of them', () => {
    expect(processCount({ DATABASE_URL: postgres })).toEqual({ count: availableParallelism() })
    expect(processCount({ DATABASE_URL: postgres, WEB_CONCURRENCY: '3' })).toEqual({ count: 3 })
    expect(processCount({ DATABASE_URL: postgres, WEB_CONCURRENCY: ' 1 ' })).toEqual({ count: 1 })
  })

  it('runs one on the embedded database, whatever WEB_CONCURRENCY says', () => {
    expect(processCount({})).toEqual({ count: 1 })
    expect(processCount({ WEB_CONCURRENCY: '8' })).toEqual({ count: 1 })
  })

  it('refuses a value that is not a whole number from 1 to 64, naming the variable', () => {
    for (const value of ['0', '65', 'two', '1.5', '-2']) {
      expect(processCount({ DATABASE_URL: postgres, WEB_CONCURRENCY: value }), value).toEqual({
        error: 'WEB_CONCURRENCY must be a whole number from 1 to 64',
      })
    }
  })
})
