import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAuth } from '#/server/auth/auth'
import { updateSiteSettings } from '#/server/settings'
import { authRequest, cookieHeaderOf as cookieOf, errorCodeOf as errorOf, testOrigin as origin } from './auth-requests'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

describe.each(coreEngines)('passkeys on %s', (engine) => {
  let database: FreshDatabase
  let auth: ReturnType<typeof createAuth>

  const request = (method: 'GET' | 'POST', path: string, options: { body?: unknown; cookie?: string } = {}) =>
    authRequest(auth, path, { ...options, method, ip: '198.51.100.20' })

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    auth = createAuth(database.connection.db)
  })
  afterAll(() => database.dispose())

  it('refuses passkey sign-in while the method is switched off, and offers it again once on', async () => {
    const db = database.connection.db
    await updateSiteSettings(db, { authPasskey: false })
    const options = await request('GET', '/passkey/generate-authenticate-options')
    expect(options.status).toBe(400)
    expect(await errorOf(options)).toBe('SIGN_IN_METHOD_IS_NOT_ENABLED')
    const verify = await request('POST', '/passkey/verify-authentication', { body: { response: {} } })
    expect(verify.status).toBe(400)
    expect(await errorOf(verify)).toBe('SIGN_IN_METHOD_IS_NOT_ENABLED')

    await updateSiteSettings(db, { authPasskey: true })
    const again = await request('GET', '/passkey/generate-authenticate-options')
    expect(again.status).toBe(200)
    expect(((await again.json()) as { challenge?: string }).challenge).toEqual(expect.any(String))
  })

  it('refuses a passkey name longer than 64 characters', async () => {
    const signUp = await request('POST', '/sign-up/email', {
      body: { name: 'Ada', email: 'ada-passkeys@example.com', password: 'engine1843' },
    })
    expect(signUp.status).toBe(200)
    const cookie = cookieOf(signUp)
    const tooLong = await request('GET', `/passkey/generate-register-options?name=${'k'.repeat(65)}`, { cookie })
    expect(tooLong.status).toBe(400)
    expect(await errorOf(tooLong)).toBe('PASSKEY_NAME_TOO_LONG')
    const rename = await request('POST', '/passkey/update-passkey', {
      body: { id: 'any', name: 'k'.repeat(65) },
      cookie,
    })
    expect(await errorOf(rename)).toBe('PASSKEY_NAME_TOO_LONG')

    const fine = await request('GET', `/passkey/generate-register-options?name=${'k'.repeat(64)}`, { cookie })
    expect(fine.status).toBe(200)
    const registerOptions = (await fine.json()) as { rp?: { id?: string } }
    expect(registerOptions.rp?.id).toBe(new URL(origin).hostname)
  })
})
