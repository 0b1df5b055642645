import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Locale } from '#/lib/i18n'
import type { SiteSettings } from '#/lib/site-settings'
import { m } from '#/paraglide/messages'
import defaultFavicon from '../../public/favicon.svg?raw'
import { serverApps } from './apps.gen'
import { backupStatus } from './backups/backups'
import type { Database } from './db/client'
import { siteSettings, users } from './db/schema'
import type { Env } from './env'
import { getSiteSettings } from './settings'

/** One item of "Before you launch" (Console → System), as the admin reads it. */
export interface LaunchCheck {
  /** Stable, for tests and keys: `email`, `payments`, … */
  id: string
  done: boolean
  /** What should be true before launch, and what is true now: in the admin's language. */
  title: string
  detail: string
  /** The docs page that explains it, without the language: `/docs/deployment#observability`. */
  docs: string
}

export interface LaunchCheckContext {
  locale: Locale
}

/** What the core's checks read besides the database and the environment: who asks, and through which address. */
export interface LaunchCheckRequest extends LaunchCheckContext {
  /** The origin of the request as this server sees it (after TRUST_PROXY), or undefined when it is not known. */
  requestOrigin: string | undefined
  userId: string
}

/** The favicon a fresh clone ships (public/favicon.svg, Hatch's egg), by its hash: a new logo has another. */
const hatchFaviconSha256 = '9cee476b94f37f78cd500bca70eb4d4d069f896ea3d029dffa7afdfe4d7bbe28'
const faviconChanged = createHash('sha256').update(defaultFavicon).digest('hex') !== hatchFaviconSha256

/** The values a fresh database has (the migration's defaults, as the schema declares them). */
const defaultProductName = siteSettings.productName.default as string
const defaultSourceRepositoryUrl = siteSettings.sourceRepositoryUrl.default as string

/** Names as a list in the reader's language ("GitHub and Google", "GitHub和Google"). */
const listOf = (names: readonly string[], locale: Locale) =>
  new Intl.ListFormat(locale, { type: 'conjunction' }).format(names)

/** A host name only: never a URL's user name, password or path (SMTP_URL carries credentials). */
const hostOf = (url: string) => {
  try {
    return new URL(url).host
  } catch {
    return ''
  }
}

/**
 * "Before you launch": the core's checks and the installed apps' (their manifests' `launchChecks`), computed from the
 * configuration this server runs with. Nothing here is remembered: a change shows the next time the page asks.
 */
export async function launchChecklist(db: Database, env: Env, request: LaunchCheckRequest): Promise<LaunchCheck[]> {
  const context: LaunchCheckContext = { locale: request.locale }
  const [core, apps] = await Promise.all([
    coreLaunchChecks(db, env, request),
    Promise.all(serverApps.map((app) => app.launchChecks?.(db, env, context) ?? [])),
  ])
  // The apps' items come after the email's, before the sign-in methods': what a site sells is set up with its mail.
  const split = core.findIndex((check) => check.id === 'email') + 1
  return [...core.slice(0, split), ...apps.flat(), ...core.slice(split)]
}

async function coreLaunchChecks(db: Database, env: Env, request: LaunchCheckRequest): Promise<LaunchCheck[]> {
  const locale = request.locale
  const [settings, [admin]] = await Promise.all([
    getSiteSettings(db),
    db.select({ twoFactorEnabled: users.twoFactorEnabled }).from(users).where(eq(users.id, request.userId)),
  ])
  const l = { locale }

  const nameChanged = settings.productName !== defaultProductName
  const identity: LaunchCheck = {
    id: 'identity',
    done: nameChanged && faviconChanged,
    title: m.launch_identity_title({}, l),
    detail:
      nameChanged && faviconChanged
        ? m.launch_identity_done({ name: settings.productName }, l)
        : nameChanged
          ? m.launch_identity_logo_default({ name: settings.productName }, l)
          : faviconChanged
            ? m.launch_identity_name_default({ name: defaultProductName }, l)
            : m.launch_identity_both_default({ name: defaultProductName }, l),
    docs: '/docs/configuration#site-settings',
  }

  const appUrl = new URL(env.APP_URL)
  const https = appUrl.protocol === 'https:'
  const arrivesOnIt = request.requestOrigin === appUrl.origin
  const address: LaunchCheck = {
    id: 'app-url',
    done: https && arrivesOnIt,
    title: m.launch_app_url_title({}, l),
    detail: !https
      ? m.launch_app_url_not_https({ url: env.APP_URL }, l)
      : !arrivesOnIt
        ? m.launch_app_url_elsewhere({ url: appUrl.origin, seen: request.requestOrigin ?? '?' }, l)
        : m.launch_app_url_done({ url: appUrl.origin }, l),
    docs: '/docs/deployment#one-address',
  }

  const secret: LaunchCheck = {
    id: 'auth-secret',
    done: Boolean(env.BETTER_AUTH_SECRET),
    title: m.launch_secret_title({}, l),
    detail: env.BETTER_AUTH_SECRET ? m.launch_secret_done({}, l) : m.launch_secret_generated({}, l),
    docs: '/docs/authentication#session-secret',
  }

  const email: LaunchCheck = {
    id: 'email',
    done: Boolean(env.SMTP_URL),
    title: m.launch_email_title({}, l),
    detail: env.SMTP_URL ? m.launch_email_done({ host: hostOf(env.SMTP_URL) }, l) : m.launch_email_missing({}, l),
    docs: '/docs/authentication#email',
  }

  return [
    identity,
    address,
    secret,
    email,
    socialSignInCheck(settings, env, locale),
    await backupsCheck(db, env, locale),
    {
      id: 'two-factor',
      done: admin?.twoFactorEnabled === true,
      title: m.launch_two_factor_title({}, l),
      detail: admin?.twoFactorEnabled ? m.launch_two_factor_done({}, l) : m.launch_two_factor_off({}, l),
      docs: '/docs/authentication#two-factor',
    },
    {
      id: 'security-contact',
      done: settings.sourceRepositoryUrl !== defaultSourceRepositoryUrl,
      title: m.launch_security_title({}, l),
      detail:
        settings.sourceRepositoryUrl !== defaultSourceRepositoryUrl
          ? m.launch_security_done({ url: settings.sourceRepositoryUrl }, l)
          : m.launch_security_default({ url: defaultSourceRepositoryUrl }, l),
      docs: '/docs/security#reporting-a-vulnerability',
    },
    telemetryCheck(env, locale),
  ]
}

/** Each social sign-in method is either configured or switched off, so no button leads nowhere and none is missed. */
function socialSignInCheck(settings: SiteSettings, env: Env, locale: Locale): LaunchCheck {
  const providers = [
    { name: 'GitHub', on: settings.authGithub, configured: Boolean(env.GITHUB_CLIENT_ID) },
    { name: 'Google', on: settings.authGoogle, configured: Boolean(env.GOOGLE_CLIENT_ID) },
    // OpenID Connect providers are a list: an empty one shows no button and needs nothing.
    ...env.OAUTH_PROVIDERS.map(({ name }) => ({ name, on: settings.authGenericOauth, configured: true })),
  ]
  const unconfigured = providers.filter((provider) => provider.on && !provider.configured).map(({ name }) => name)
  const working = providers.filter((provider) => provider.on && provider.configured).map(({ name }) => name)
  const l = { locale }
  return {
    id: 'social-sign-in',
    done: unconfigured.length === 0,
    title: m.launch_social_title({}, l),
    detail:
      unconfigured.length > 0
        ? m.launch_social_unconfigured({ providers: listOf(unconfigured, locale) }, l)
        : working.length > 0
          ? m.launch_social_done({ providers: listOf(working, locale) }, l)
          : m.launch_social_hidden({}, l),
    docs: '/docs/authentication#social-providers',
  }
}

function telemetryCheck(env: Env, locale: Locale): LaunchCheck {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT
  const l = { locale }
  return {
    id: 'telemetry',
    done: endpoint !== undefined,
    title: m.launch_telemetry_title({}, l),
    detail: endpoint ? m.launch_telemetry_done({ host: hostOf(endpoint) }, l) : m.launch_telemetry_missing({}, l),
    docs: '/docs/deployment#observability',
  }
}

/** A backup older than this means the daily schedule missed at least one. */
const backupStaleAfterMs = 36 * 3600_000

/** "2 hours ago", "昨天", in the reader's language. */
function timeAgo(at: Date, locale: Locale): string {
  const seconds = Math.round((at.getTime() - Date.now()) / 1000)
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
  ]
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit)
  }
  return format.format(seconds, 'second')
}

/**
 * Done when a backup finished within the last day and a half, the last attempt did not fail, and the backups leave
 * the data's disk (BACKUP_TO elsewhere or a bucket): a copy beside the data is lost with it.
 */
async function backupsCheck(db: Database, env: Env, locale: Locale): Promise<LaunchCheck> {
  const l = { locale }
  const status = await backupStatus(db, env)
  const where = status.latest?.location ?? status.destination
  const recent = status.latest !== null && Date.now() - status.latest.at.getTime() <= backupStaleAfterMs
  const detail =
    env.BACKUP_SCHEDULE === 'off'
      ? m.launch_backups_off({}, l)
      : status.lastFailure
        ? m.launch_backups_failed({ reason: status.lastFailure.error }, l)
        : !status.latest
          ? m.launch_backups_none({ schedule: env.BACKUP_SCHEDULE }, l)
          : !recent
            ? m.launch_backups_stale({ when: timeAgo(status.latest.at, locale), where }, l)
            : status.besideData
              ? m.launch_backups_beside_data({ where: status.destination }, l)
              : m.launch_backups_recent({ when: timeAgo(status.latest.at, locale), where }, l)
  return {
    id: 'backups',
    done: env.BACKUP_SCHEDULE !== 'off' && recent && !status.lastFailure && !status.besideData,
    title: m.launch_backups_title({}, l),
    detail,
    docs: '/docs/database#backups',
  }
}
