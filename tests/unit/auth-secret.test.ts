import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { resolveAuthSecret } from '#/server/auth-secret'
import { EnvError, parseEnv } from '#/server/env'

const dirs: string[] = []
const freshDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hatch-secret-'))
  dirs.push(dir)
  return path.join(dir, 'data')
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('the auth secret', () => {
  it('is generated once when none is configured, kept in the data folder for the owner only, and reused', () => {
    const dataDir = freshDir()
    const first = resolveAuthSecret({ configured: undefined, dataDir })
    expect(first.source).toBe('generated')
    expect(first.secret.length).toBeGreaterThanOrEqual(32)
    const file = path.join(dataDir, 'auth-secret')
    expect(readFileSync(file, 'utf8').trim()).toBe(first.secret)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const second = resolveAuthSecret({ configured: undefined, dataDir })
    expect(second).toEqual({ secret: first.secret, source: 'stored' })
  })

  it('comes from BETTER_AUTH_SECRET when set, and nothing is written', () => {
    const dataDir = freshDir()
    const configured = 'x'.repeat(40)
    expect(resolveAuthSecret({ configured, dataDir })).toEqual({ secret: configured, source: 'environment' })
    expect(() => statSync(dataDir)).toThrow()
  })

  it('must be long enough when configured', () => {
    expect(() => parseEnv({ BETTER_AUTH_SECRET: 'short' })).toThrow(EnvError)
    expect(() => parseEnv({ BETTER_AUTH_SECRET: 'short' })).toThrow(/BETTER_AUTH_SECRET/)
  })
})
