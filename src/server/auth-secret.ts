import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const secretFileName = 'auth-secret'

/**
 * The secret that signs sessions: BETTER_AUTH_SECRET when set, else one generated on first start and kept in
 * DATA_DIR (readable by the owner only), so `npm start` needs no configuration and sessions survive restarts.
 * Several app servers must share one secret: set BETTER_AUTH_SECRET in production.
 */
export function resolveAuthSecret(options: { configured: string | undefined; dataDir: string }): {
  secret: string
  source: 'environment' | 'generated' | 'stored'
} {
  if (options.configured) return { secret: options.configured, source: 'environment' }
  const file = path.resolve(options.dataDir, secretFileName)
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim()
    if (stored.length >= 32) return { secret: stored, source: 'stored' }
  }
  mkdirSync(path.dirname(file), { recursive: true })
  const secret = randomBytes(32).toString('base64url')
  writeFileSync(file, `${secret}\n`, { mode: 0o600 })
  chmodSync(file, 0o600)
  return { secret, source: 'generated' }
}
