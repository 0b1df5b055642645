import { describe, expect, it } from 'vitest'
import type { AppEnvRules } from '#/server/app-env-rules'
import { EnvError, envRuleProblems, parseEnv } from '#/server/env'

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
    // As a browser writes it, so the server's own upload links compare equal to it (a picture URL is checked that way).
    expect(parseEnv({ APP_URL: 'https://Hatch.Example.com:443/' }).APP_URL).toBe('https://hatch.example.com')
    expect(parseEnv({ APP_URL: 'http://127.0.0.1:3998/app/' }).APP_URL).toBe('http://127.0.0.1:3998/app')
  })

  it('trusts every loopback name of the port without APP_URL, and only APP_URL when it is set', () => {
    expect(parseEnv({ PORT: '8080' }).trustedOrigins).toEqual([
      'http://localhost:8080',
      'http://127.0.0.1:8080',
      'http://[::1]:8080',
    ])
    expect(parseEnv({ PORT: '8080', APP_URL: 'https://hatch.example.com/app/' }).trustedOrigins).toEqual([
      'https://hatch.example.com',
    ])
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

  it('trusts a session copy for a minute by default, between 0 (off) and ten minutes', () => {
    expect(parseEnv({}).SESSION_CACHE_SECONDS).toBe(60)
    expect(parseEnv({ SESSION_CACHE_SECONDS: '0' }).SESSION_CACHE_SECONDS).toBe(0)
    expect(() => parseEnv({ SESSION_CACHE_SECONDS: '601' })).toThrow(/SESSION_CACHE_SECONDS: must be at most 600/)
    expect(() => parseEnv({ SESSION_CACHE_SECONDS: '-1' })).toThrow(/SESSION_CACHE_SECONDS/)
  })

  it('checks the observability variables, naming the one that is wrong', () => {
    expect(parseEnv({}).LOG_LEVEL).toBe('info')
    expect(parseEnv({ LOG_LEVEL: 'warn' }).LOG_LEVEL).toBe('warn')
    expect(() => parseEnv({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL: must be one of fatal, error, warn/)
    expect(() => parseEnv({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 24 characters/)
    expect(() => parseEnv({ METRICS_TOKEN: 'a token with spaces in it, long enough' })).toThrow(/METRICS_TOKEN/)
    expect(parseEnv({ METRICS_TOKEN: 'k3y-for-prometheus-0123456789' }).METRICS_TOKEN).toBeDefined()
    expect(() => parseEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/)
    expect(() => parseEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'grpc://x' })).toThrow(
      /OTEL_EXPORTER_OTLP_TRACES_ENDPOINT/,
    )
    expect(() => parseEnv({ OTEL_EXPORTER_OTLP_HEADERS: 'api-key' })).toThrow(/OTEL_EXPORTER_OTLP_HEADERS: must be/)
    expect(parseEnv({ OTEL_EXPORTER_OTLP_HEADERS: 'api-key=abc, x-team=ops' }).OTEL_EXPORTER_OTLP_HEADERS).toBeDefined()
    expect(parseEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://localhost:4318' }).OTEL_EXPORTER_OTLP_ENDPOINT).toBe(
      'http://localhost:4318',
    )
  })

  it('accepts PostgreSQL URLs in both spellings', () => {
    expect(parseEnv({ DATABASE_URL: 'postgres://127.0.0.1:5432/test' }).DATABASE_URL).toBeDefined()
    expect(parseEnv({ DATABASE_URL: 'postgresql://u:p@db/app' }).DATABASE_URL).toBeDefined()
  })

  it('reads generic OAuth providers from OAUTH_PROVIDERS, with OpenID scopes by default', () => {
    const [provider] = parseEnv({
      OAUTH_PROVIDERS: JSON.stringify([
        {
          id: 'acme',
          name: 'Acme SSO',
          discoveryUrl: 'https://id.acme.test/.well-known/openid-configuration',
          clientId: 'c',
          clientSecret: 's',
        },
      ]),
    }).OAUTH_PROVIDERS
    expect(provider).toEqual({
      id: 'acme',
      name: 'Acme SSO',
      discoveryUrl: 'https://id.acme.test/.well-known/openid-configuration',
      clientId: 'c',
      clientSecret: 's',
      scopes: ['openid', 'email', 'profile'],
    })
    expect(parseEnv({}).OAUTH_PROVIDERS).toEqual([])
  })

  it('says what is wrong with OAUTH_PROVIDERS', () => {
    expect(() => parseEnv({ OAUTH_PROVIDERS: '{not json' })).toThrow(/OAUTH_PROVIDERS: must be a JSON list/)
    expect(() => parseEnv({ OAUTH_PROVIDERS: '[{"id":"Acme!","name":"A"}]' })).toThrow(
      /OAUTH_PROVIDERS: 0\.id: id must be lower-case letters/,
    )
    const withoutSecret = [{ id: 'acme', name: 'A', discoveryUrl: 'https://a.test/x', clientId: 'c' }]
    expect(() => parseEnv({ OAUTH_PROVIDERS: JSON.stringify(withoutSecret) })).toThrow(/0\.clientSecret/)
  })

  it('refuses a social client id without its secret, and the reverse', () => {
    expect(() => parseEnv({ GITHUB_CLIENT_ID: 'id' })).toThrow(
      /GITHUB_CLIENT_SECRET: must be set together with GITHUB_CLIENT_ID/,
    )
    expect(() => parseEnv({ GOOGLE_CLIENT_SECRET: 'secret' })).toThrow(
      /GOOGLE_CLIENT_ID: must be set together with GOOGLE_CLIENT_SECRET/,
    )
    expect(parseEnv({ GITHUB_CLIENT_ID: 'id', GITHUB_CLIENT_SECRET: 'secret' }).GITHUB_CLIENT_ID).toBe('id')
  })

  it("checks the installed apps' rules across their variables with the core's, each problem naming its variable", () => {
    const payments = (variable: string): AppEnvRules => ({ onlyOneOf: { group: 'payment provider', variable } })
    const rules: AppEnvRules[] = [
      { together: [['A_KEY', 'A_SECRET']], needs: [['A_KEY', 'A_STORE']], ...payments('A_KEY') },
      { ...payments('B_KEY'), check: ({ B_KEY: key }) => (key === 'bad' ? ['B_KEY: is bad'] : []) },
      payments('C_KEY'),
    ]
    expect(envRuleProblems({ A_KEY: 'a', A_SECRET: 's', A_STORE: '1' }, rules)).toEqual([])
    expect(envRuleProblems({ A_KEY: 'a' }, rules)).toEqual([
      '  A_SECRET: must be set together with A_KEY',
      '  A_KEY: needs A_STORE as well',
    ])
    expect(envRuleProblems({ A_SECRET: 's' }, rules)).toEqual(['  A_KEY: must be set together with A_SECRET'])
    expect(envRuleProblems({ B_KEY: 'bad' }, rules)).toEqual(['  B_KEY: is bad'])
    // One provider takes payments: two configured at once are both named.
    expect(envRuleProblems({ B_KEY: 'b', C_KEY: 'c' }, rules)).toEqual([
      '  B_KEY, C_KEY: only one payment provider may be configured; unset all but one of them',
    ])
  })

  it('switches AI on with a provider URL and a model, and says which half is missing', () => {
    const off = parseEnv({})
    expect([off.AI_BASE_URL, off.AI_MODEL]).toEqual([undefined, undefined])
    expect(off.AI_DOCS_QUESTIONS_PER_MINUTE).toBe(10)
    const on = parseEnv({ AI_BASE_URL: 'http://localhost:11434/v1', AI_MODEL: 'qwen3:8b' })
    expect([on.AI_BASE_URL, on.AI_MODEL, on.AI_API_KEY]).toEqual(['http://localhost:11434/v1', 'qwen3:8b', undefined])
    expect(() => parseEnv({ AI_MODEL: 'gpt-5-mini' })).toThrow(/AI_BASE_URL: must be set together with AI_MODEL/)
    expect(() => parseEnv({ AI_BASE_URL: 'https://api.openai.com/v1' })).toThrow(/AI_MODEL: must be set together/)
    expect(() => parseEnv({ AI_API_KEY: 'sk-test' })).toThrow(/AI_API_KEY: needs AI_BASE_URL as well/)
    expect(() => parseEnv({ AI_EMBEDDING_MODEL: 'nomic-embed-text' })).toThrow(/AI_EMBEDDING_MODEL: needs AI_BASE_URL/)
    expect(() => parseEnv({ AI_BASE_URL: 'ftp://models.example.com', AI_MODEL: 'm' })).toThrow(
      /AI_BASE_URL: must be an http:\/\/ or https:\/\/ URL/,
    )
  })
})
