import { z } from '#/lib/zod'
import { appEnv } from './app-env.gen'

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
  STRIPE_SECRET_KEY: z.string().startsWith('sk_', 'must be a Stripe secret key (sk_live_… or sk_test_…)').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_', 'must be a webhook signing secret (whsec_…)').optional(),
  /** Where the stripe package sends its calls; only tests point it elsewhere (a fake Stripe API). */
  STRIPE_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  STRIPE_PAYMENT_METHODS: z
    .string()
    .default('card')
    .transform((value) =>
      value
        .split(',')
        .map((method) => method.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.string().regex(/^[a-z_]+$/, 'must be payment method types such as card,alipay,wechat_pay'))
        .min(1, 'must name at least one payment method'),
    ),
  /** An organization access token of Polar (Settings → Developers); with POLAR_WEBHOOK_SECRET, Polar takes payments. */
  POLAR_ACCESS_TOKEN: z.string().trim().min(1, 'must not be empty').optional(),
  POLAR_WEBHOOK_SECRET: z.string().trim().min(1, 'must not be empty').optional(),
  /** Polar's sandbox (test cards, no money moves) or production. */
  POLAR_SERVER: z.enum(['sandbox', 'production'], { error: 'must be sandbox or production' }).default('production'),
  /** Where the Polar SDK sends its calls; only tests point it elsewhere (a fake Polar API). */
  POLAR_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  /** A Lemon Squeezy API key (Settings → API); with the store, webhook secret and variants, it takes payments. */
  LEMONSQUEEZY_API_KEY: z.string().trim().min(1, 'must not be empty').optional(),
  LEMONSQUEEZY_STORE_ID: z.string().trim().regex(/^\d+$/, 'must be the numeric id of the store').optional(),
  LEMONSQUEEZY_WEBHOOK_SECRET: z
    .string()
    .trim()
    .min(6, 'must be the signing secret of the webhook (6 to 40 characters)')
    .max(40, 'must be the signing secret of the webhook (6 to 40 characters)')
    .optional(),
  /** Which variant sells which plan: `pro-monthly:123,pro-yearly:124,team-monthly:125,team-yearly:126`. */
  LEMONSQUEEZY_VARIANTS: z
    .string()
    .trim()
    .regex(
      /^(?:(?:pro|team)-(?:monthly|yearly):\d+)(?:\s*,\s*(?:pro|team)-(?:monthly|yearly):\d+)*$/,
      'must map each plan and period to a variant id, e.g. pro-monthly:123,pro-yearly:124,team-monthly:125,team-yearly:126',
    )
    .optional(),
  /** The store's currency: Lemon Squeezy sells in one, so checkouts in the other are refused. */
  LEMONSQUEEZY_CURRENCY: z.enum(['USD', 'CNY'], { error: 'must be USD or CNY' }).default('USD'),
  /** A Paddle Billing API key (Developer tools → Authentication); with the webhook secret and client token, it takes payments. */
  PADDLE_API_KEY: z.string().trim().min(1, 'must not be empty').optional(),
  /** The secret key of the notification destination (Developer tools → Notifications). */
  PADDLE_WEBHOOK_SECRET: z.string().trim().min(1, 'must not be empty').optional(),
  /** A client-side token (Developer tools → Authentication): Paddle.js opens the checkout with it, in the browser. */
  PADDLE_CLIENT_TOKEN: z
    .string()
    .trim()
    .regex(/^(?:test|live)_[A-Za-z0-9]+$/, 'must be a client-side token, starting with test_ or live_')
    .optional(),
  /** Paddle's sandbox (test cards, no money moves) or production. */
  PADDLE_ENVIRONMENT: z
    .enum(['sandbox', 'production'], { error: 'must be sandbox or production' })
    .default('production'),
  /** Where the Paddle SDK sends its calls; only tests point it elsewhere (a fake Paddle API). */
  PADDLE_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
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
  /** Analytics beacons accepted per address per minute; 0 = no limit (benchmarks). */
  INSIGHTS_BEACONS_PER_MINUTE: z.coerce.number({ error: 'must be a number' }).int().min(0).default(120),
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
  /** Lets SSO metadata URLs, OpenID issuers and their endpoints be private addresses: local development and tests. */
  SSO_ALLOW_PRIVATE: z
    .enum(['0', '1', 'true', 'false'], { error: 'must be 1, 0, true or false' })
    .default('0')
    .transform((value) => value === '1' || value === 'true'),
  /** DNS servers the SSO domain check asks (`host` or `host:port`, comma-separated); the system's by default. */
  SSO_DNS_SERVERS: z
    .string()
    .trim()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((server) => server.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z
          .string()
          .regex(
            /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:]+\])(?::\d{1,5})?$|^[0-9a-fA-F:]+$/,
            'must be IP addresses, each optionally with :port, separated by commas',
          ),
      ),
    ),
})

const pairedCredentials = [
  ['GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET'],
  ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
  ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'],
  ['POLAR_ACCESS_TOKEN', 'POLAR_WEBHOOK_SECRET'],
  ['LEMONSQUEEZY_API_KEY', 'LEMONSQUEEZY_WEBHOOK_SECRET'],
  ['PADDLE_API_KEY', 'PADDLE_WEBHOOK_SECRET'],
  ['AI_BASE_URL', 'AI_MODEL'],
  ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'],
] as const

/** The variable that switches each payment provider on (with its webhook secret, paired above). */
const paymentProviderKeys = [
  'STRIPE_SECRET_KEY',
  'POLAR_ACCESS_TOKEN',
  'LEMONSQUEEZY_API_KEY',
  'PADDLE_API_KEY',
] as const

/** Settings that mean nothing without another one. */
const dependentSettings = [
  ['AI_API_KEY', 'AI_BASE_URL'],
  ['AI_EMBEDDING_MODEL', 'AI_BASE_URL'],
  ['S3_BUCKET', 'S3_ACCESS_KEY_ID'],
  ['S3_ACCESS_KEY_ID', 'S3_BUCKET'],
  ['S3_ENDPOINT', 'S3_BUCKET'],
  ['LEMONSQUEEZY_API_KEY', 'LEMONSQUEEZY_STORE_ID'],
  ['LEMONSQUEEZY_API_KEY', 'LEMONSQUEEZY_VARIANTS'],
  ['PADDLE_API_KEY', 'PADDLE_CLIENT_TOKEN'],
] as const

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
  // A client id without its secret (or the reverse) is a half-configured provider: say so instead of hiding its button.
  const unpaired = pairedCredentials.flatMap(([id, secret]) =>
    Boolean(parsed[id]) === Boolean(parsed[secret])
      ? []
      : [`  ${parsed[id] ? secret : id}: must be set together with ${parsed[id] ? id : secret}`],
  )
  for (const [setting, needed] of dependentSettings) {
    if (parsed[setting] && !parsed[needed]) unpaired.push(`  ${setting}: needs ${needed} as well`)
  }
  // One provider takes payments: two configured at once would leave it to chance which one a buyer meets.
  const paymentKeys = paymentProviderKeys.filter((key) => parsed[key])
  if (paymentKeys.length > 1) {
    unpaired.push(`  ${paymentKeys.join(', ')}: only one payment provider may be configured; unset all but one of them`)
  }
  // Paddle.js refuses a sandbox token in production and the reverse; say so before a buyer meets a blank checkout.
  const paddleToken = parsed.PADDLE_CLIENT_TOKEN
  if (paddleToken && paddleToken.startsWith('test_') !== (parsed.PADDLE_ENVIRONMENT === 'sandbox')) {
    unpaired.push(
      `  PADDLE_CLIENT_TOKEN: a ${paddleToken.startsWith('test_') ? 'test_' : 'live_'} token does not work with PADDLE_ENVIRONMENT=${parsed.PADDLE_ENVIRONMENT}`,
    )
  }
  // Paddle's keys say which environment they belong to (pdl_sdbx_… / pdl_live_…); the other API refuses them.
  const paddleKey = parsed.PADDLE_API_KEY
  const keyEnvironment = paddleKey?.startsWith('pdl_sdbx_')
    ? 'sandbox'
    : paddleKey?.startsWith('pdl_live_')
      ? 'production'
      : undefined
  if (keyEnvironment && keyEnvironment !== parsed.PADDLE_ENVIRONMENT) {
    unpaired.push(
      `  PADDLE_API_KEY: a ${keyEnvironment} key does not work with PADDLE_ENVIRONMENT=${parsed.PADDLE_ENVIRONMENT}`,
    )
  }
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
