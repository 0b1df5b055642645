import { z } from '#/lib/zod'
import { appEnv, appEnvRules } from './app-env.gen'
import type { AppEnvRules } from './app-env-rules'

/** Raised when an environment variable has a value the server cannot run with. */
export class EnvError extends Error {
  override name = 'EnvError'
}

const postgresUrl = z
  .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' })
  .optional()

const oauthProvidersHint =
  'must be a JSON list such as [{"id":"acme","name":"Acme","discoveryUrl":"https://id.acme.com/.well-known/openid-configuration","clientId":"…","clientSecret":"…"}]'

/** A generic OAuth 2.0 / OpenID Connect provider; its button reads "Continue with {name}". */
const oauthProvider = z.object({
  id: z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, 'id must be lower-case letters, digits and dashes'),
  name: z.string().min(1, 'name is required').max(60),
  discoveryUrl: z.url({ protocol: /^https?$/, error: 'discoveryUrl must be an http(s) URL' }),
  clientId: z.string().min(1, 'clientId is required'),
  clientSecret: z.string().min(1, 'clientSecret is required'),
  scopes: z.array(z.string().min(1)).default(['openid', 'email', 'profile']),
})

export type OauthProviderConfig = z.infer<typeof oauthProvider>

const envSchema = z.object({
  // The installed apps' own variables (their server/env.ts; docs/decisions/042), checked with the core's.
  ...appEnv,
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 65535')
    .max(65535, 'must be between 1 and 65535')
    .default(3000),
  HOST: z.string().min(1, 'must not be empty').default('0.0.0.0'),
  APP_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  DATABASE_URL: postgresUrl,
  DATA_DIR: z.string().min(1, 'must not be empty').default('data'),
  BETTER_AUTH_SECRET: z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -base64 32)').optional(),
  AUTH_SIGN_IN_LIMIT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(10),
  AUTH_SIGN_UP_LIMIT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(5),
  AUTH_REQUEST_LIMIT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(100),
  AUTH_EMAIL_LIMIT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(5),
  SESSION_CACHE_SECONDS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 (off) or more')
    .max(600, 'must be at most 600 (ten minutes)')
    .default(60),
  GITHUB_CLIENT_ID: z.string().optional(),
  GITHUB_CLIENT_SECRET: z.string().optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  OAUTH_PROVIDERS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return []
      let parsed: unknown
      try {
        parsed = JSON.parse(value)
      } catch {
        ctx.addIssue({ code: 'custom', message: oauthProvidersHint })
        return z.NEVER
      }
      const result = z.array(oauthProvider).safeParse(parsed)
      if (!result.success) {
        const issue = result.error.issues[0]
        ctx.addIssue({ code: 'custom', message: `${issue?.path.join('.')}: ${issue?.message} (${oauthProvidersHint})` })
        return z.NEVER
      }
      return result.data
    }),
  SMTP_URL: z
    .url({
      protocol: /^smtps?$/,
      error: 'must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587',
    })
    .optional(),
  MAIL_FROM: z
    .string()
    .min(3, 'must be an address such as "Hatch <no-reply@example.com>"')
    .default('Hatch <no-reply@localhost>'),
  /** An OpenAI-compatible API (a hosted provider, Ollama, vLLM, …): with AI_MODEL it switches the AI features on. */
  AI_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, e.g. https://api.openai.com/v1' })
    .optional(),
  AI_API_KEY: z.string().optional(),
  AI_MODEL: z.string().trim().min(1, 'must name a chat model').max(200, 'must be at most 200 characters').optional(),
  /** With it, "Ask the docs" retrieves by meaning (embeddings) rather than by the search index's words. */
  AI_EMBEDDING_MODEL: z
    .string()
    .trim()
    .min(1, 'must name an embedding model')
    .max(200, 'must be at most 200 characters')
    .optional(),
  /** "Ask the docs" questions per address per minute (anyone may ask, signed in or not). */
  AI_DOCS_QUESTIONS_PER_MINUTE: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(10),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  TRUST_PROXY: z.enum(['false', 'true', 'loopback'], { error: 'must be false, true or loopback' }).default('false'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number({ error: 'must be a number' }).int().min(0).default(10_000),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace or silent',
    })
    .default('info'),
  /** The bearer token Prometheus sends to /api/metrics; without it the metrics are not served at all. */
  METRICS_TOKEN: z
    .string()
    .min(24, 'must be at least 24 characters (e.g. openssl rand -hex 16)')
    .regex(/^[\x21-\x7e]+$/, 'must be printable characters without spaces')
    .optional(),
  /** OpenTelemetry traces go here over OTLP/HTTP (scripts/telemetry.ts); unset, tracing is off. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, e.g. http://localhost:4318' })
    .optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, e.g. http://localhost:4318/v1/traces' })
    .optional(),
  OTEL_EXPORTER_OTLP_HEADERS: z
    .string()
    .regex(/^\s*[^=,\s]+\s*=[^,]*(,\s*[^=,\s]+\s*=[^,]*)*$/, 'must be name=value pairs separated by commas')
    .optional(),
  OTEL_SERVICE_NAME: z.string().trim().min(1).max(100, 'must be at most 100 characters').optional(),
  HATCH_DEBUG_ROUTES: z
    .enum(['0', '1', 'true', 'false'], { error: 'must be 1, 0, true or false' })
    .default('0')
    .transform((value) => value === '1' || value === 'true'),
  /** Files go to this S3-compatible bucket (with the keys below); unset: DATA_DIR/files on the local disk. */
  S3_BUCKET: z
    .string()
    .trim()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'must be an S3 bucket name (3 to 63 lower-case letters, digits, dots, dashes)',
    )
    .optional(),
  S3_REGION: z.string().trim().min(1, 'must not be empty').default('us-east-1'),
  /** An S3-compatible service other than AWS (R2, MinIO, …). */
  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  S3_ACCESS_KEY_ID: z.string().trim().min(1, 'must not be empty').optional(),
  S3_SECRET_ACCESS_KEY: z.string().trim().min(1, 'must not be empty').optional(),
  /**
   * Where backups go (src/server/backups): a folder, best on another disk, or `s3://bucket/prefix` reached with the S3
   * keys above; unset: DATA_DIR/backups.
   */
  BACKUP_TO: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .refine(
      (value) => !value.startsWith('s3:') || /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/.test(value),
      'must be a folder or s3://bucket/prefix',
    )
    .optional(),
  /** PostgreSQL's client tools for backups, when those on PATH are older than the server (pg_dump refuses then). */
  PG_DUMP: z.string().trim().min(1, 'must not be empty').optional(),
  PG_RESTORE: z.string().trim().min(1, 'must not be empty').optional(),
  /** When the scheduled backup runs, a cron expression in UTC, or `off`. */
  BACKUP_SCHEDULE: z
    .string()
    .trim()
    .regex(
      /^(off|[0-9*,/-]+ [0-9*,/-]+ [0-9*,/-]+ [0-9*,/-]+ [0-9*,/-]+)$/,
      'must be a cron expression of five fields (minute hour day month weekday, UTC) or off',
    )
    .default('20 3 * * *'),
})

const pairedCredentials = [
  ['GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET'],
  ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
  ['AI_BASE_URL', 'AI_MODEL'],
  ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'],
] as const

/** Settings that mean nothing without another one. */
const dependentSettings = [
  ['AI_API_KEY', 'AI_BASE_URL'],
  ['AI_EMBEDDING_MODEL', 'AI_BASE_URL'],
  ['S3_BUCKET', 'S3_ACCESS_KEY_ID'],
] as const

/** The S3 keys serve the files' bucket, the backups' bucket, or both: keys with neither are a mistake, and so is either bucket without keys. */
function s3Problems(parsed: Record<string, unknown>): string[] {
  const backupBucket = typeof parsed.BACKUP_TO === 'string' && parsed.BACKUP_TO.startsWith('s3://')
  const problems: string[] = []
  for (const variable of ['S3_ACCESS_KEY_ID', 'S3_ENDPOINT']) {
    if (parsed[variable] && !parsed.S3_BUCKET && !backupBucket) {
      problems.push(`${variable}: needs S3_BUCKET (or BACKUP_TO=s3://…) as well`)
    }
  }
  if (backupBucket && !parsed.S3_ACCESS_KEY_ID)
    problems.push('BACKUP_TO: an s3:// address needs S3_ACCESS_KEY_ID as well')
  return problems
}

/**
 * The core's rules across its variables and the installed apps' (src/server/app-env-rules.ts), each problem a line. A
 * client id without its secret (or the reverse) is a half-configured provider: say so instead of hiding its button.
 */
export function envRuleProblems(
  parsed: Record<string, unknown>,
  everyRule: readonly AppEnvRules[] = [
    { together: pairedCredentials, needs: dependentSettings, check: s3Problems },
    ...appEnvRules,
  ],
): string[] {
  const problems: string[] = []
  for (const rules of everyRule) {
    for (const [first, second] of rules.together ?? []) {
      if (Boolean(parsed[first]) !== Boolean(parsed[second])) {
        problems.push(
          `  ${parsed[first] ? second : first}: must be set together with ${parsed[first] ? first : second}`,
        )
      }
    }
    for (const [setting, needed] of rules.needs ?? []) {
      if (parsed[setting] && !parsed[needed]) problems.push(`  ${setting}: needs ${needed} as well`)
    }
    problems.push(...(rules.check?.(parsed) ?? []).map((line) => `  ${line}`))
  }
  const groups = new Map<string, string[]>()
  for (const { onlyOneOf } of everyRule) {
    if (onlyOneOf && parsed[onlyOneOf.variable]) {
      groups.set(onlyOneOf.group, [...(groups.get(onlyOneOf.group) ?? []), onlyOneOf.variable])
    }
  }
  for (const [group, variables] of groups) {
    if (variables.length > 1) {
      problems.push(`  ${variables.join(', ')}: only one ${group} may be configured; unset all but one of them`)
    }
  }
  return problems
}

export type Env = z.infer<typeof envSchema> & {
  APP_URL: string
  /** The origins browsers may send requests from: APP_URL when it is set, else every loopback name of PORT. */
  trustedOrigins: string[]
}

/** Parses the environment once; the message names every variable that is wrong. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  // An empty variable means "not set" (a common shell and .env habit).
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''))
  const result = envSchema.safeParse(cleaned)
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
    throw new EnvError(`Invalid environment variables:\n${lines.join('\n')}`)
  }
  const parsed = result.data
  const unpaired = envRuleProblems(parsed)
  if (unpaired.length > 0) throw new EnvError(`Invalid environment variables:\n${unpaired.join('\n')}`)
  // As a browser writes it (lower-case host, no default port), so links the server builds compare equal to it.
  const givenAppUrl = new URL(parsed.APP_URL ?? `http://localhost:${parsed.PORT}`)
  const appUrl = `${givenAppUrl.origin}${givenAppUrl.pathname}`.replace(/\/$/, '')
  // Without APP_URL the server is being tried on this machine: whichever loopback name the browser was given works.
  const trustedOrigins = parsed.APP_URL
    ? [new URL(appUrl).origin]
    : ['localhost', '127.0.0.1', '[::1]'].map((host) => `http://${host}:${parsed.PORT}`)
  return { ...parsed, APP_URL: appUrl, trustedOrigins }
}

let cached: Env | undefined

export function getEnv(): Env {
  cached ??= parseEnv(process.env)
  return cached
}
