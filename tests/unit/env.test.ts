import { describe, expect, it } from 'vitest'
import { EnvError, parseEnv } from '#/server/env'

describe('environment variables', () => {
  it('needs none: the defaults run the embedded database on port 3000', () => {
    const env = parseEnv({})
    expect(env.PORT).toBe(3000)
    expect(env.DATABASE_URL).toBeUndefined()
    expect(env.DATA_DIR).toBe('data')
    expect(env.APP_URL).toBe('http://localhost:3000')
    expect(env.HATCH_DEBUG_ROUTES).toBe(false)
  })

  it('derives APP_URL from PORT and drops a trailing slash from a given one', () => {
    expect(parseEnv({ PORT: '8080' }).APP_URL).toBe('http://localhost:8080')
    expect(parseEnv({ APP_URL: 'https://hatch.example.com/' }).APP_URL).toBe('https://hatch.example.com')
  })

  it('treats an empty variable as unset', () => {
    expect(parseEnv({ DATABASE_URL: '', PORT: '' }).DATABASE_URL).toBeUndefined()
  })

  it('names each bad variable in the error', () => {
    expect(() => parseEnv({ PORT: 'eighty' })).toThrow(EnvError)
    expect(() => parseEnv({ PORT: '70000' })).toThrow(/PORT: must be between 1 and 65535/)
    expect(() => parseEnv({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must be a postgres/)
    expect(() => parseEnv({ REDIS_URL: 'http://x' })).toThrow(/REDIS_URL/)
    expect(() => parseEnv({ APP_URL: 'ftp://x' })).toThrow(/APP_URL/)
    try {
      parseEnv({ PORT: '0', TRUST_PROXY: 'sometimes' })
      expect.unreachable()
    } catch (error) {
      expect(String(error)).toMatch(/PORT/)
      expect(String(error)).toMatch(/TRUST_PROXY/)
    }
  })

  it('accepts PostgreSQL URLs in both spellings', () => {
    expect(parseEnv({ DATABASE_URL: 'postgres://127.0.0.1:5432/test' }).DATABASE_URL).toBeDefined()
    expect(parseEnv({ DATABASE_URL: 'postgresql://u:p@db/app' }).DATABASE_URL).toBeDefined()
  })
})
