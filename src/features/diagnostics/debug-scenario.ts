import { notFound } from '@tanstack/react-router'
import { createServerFn } from '@tanstack/react-start'
import { getCookie } from '@tanstack/react-start/server'
import { z } from '#/lib/zod'
import { pingDatabase } from '#/server/db/client'
import { getDb } from '#/server/db/database'
import { getEnv } from '#/server/env'

/**
 * How long the `slow` scenario takes; shutdown tests use it as a request still in flight. It reads the database after
 * its wait, as a real page would, so a server that closed the database under it would fail it.
 */
const slowScenarioMs = 1500

/** Set this cookie to make the `error` scenario fail; clear it and "Try Again" succeeds. */
export const debugFailCookie = 'hatch-debug-fail'

export const runDebugScenario = createServerFn({ method: 'GET' })
  .validator(z.object({ scenario: z.string().max(100) }))
  .handler(async ({ data }) => {
    if (!getEnv().HATCH_DEBUG_ROUTES) throw notFound()
    if (data.scenario === 'error') {
      if (getCookie(debugFailCookie) === '1') throw new Error('The debug scenario failed on purpose.')
      return { scenario: data.scenario, loadedAt: new Date().toISOString() }
    }
    if (data.scenario === 'slow') {
      await new Promise((resolve) => setTimeout(resolve, slowScenarioMs))
      await pingDatabase(getDb())
      return { scenario: data.scenario, loadedAt: new Date().toISOString() }
    }
    throw notFound()
  })
