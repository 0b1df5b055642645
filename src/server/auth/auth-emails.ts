import { and, eq } from 'drizzle-orm'
import type { Locale } from '#/lib/i18n'
import type { Database } from '../db/client'
import { accounts } from '../db/schema'
import { type EmailMessage, sendEmail } from '../email/mailer'
import {
  changeEmailEmail,
  choosePasswordEmail,
  magicLinkEmail,
  type OneTimeCodePurpose,
  oneTimeCodeEmail,
  resetPasswordEmail,
  verificationEmail,
} from '../email/templates'
import { localeOfRequest } from '../request-locale'
import { getSiteSettings } from '../settings'

export const magicLinkMinutes = 5
export const oneTimeCodeMinutes = 5

/**
 * Queues one of the emails signing in sends: written in the language of the request that asked for it (or `locale`
 * when the email's language was chosen earlier), under the product's name from Configuration.
 */
export async function sendAuthEmail(
  db: Database,
  language: { request?: Request; locale?: Locale },
  compose: (context: { product: string; locale: Locale }) => EmailMessage,
): Promise<void> {
  const { productName } = await getSiteSettings(db)
  const locale = language.locale ?? localeOfRequest(language.request)
  await sendEmail(db, compose({ product: productName, locale }))
}

/** Forgot password: a reset link, or, for an account without a password yet, a link to choose its first one. */
export async function sendPasswordLink(
  db: Database,
  user: { id: string; email: string; name: string },
  url: string,
  request: Request | undefined,
): Promise<void> {
  const [credential] = await db
    .select({ password: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, user.id), eq(accounts.providerId, 'credential')))
  const template = credential?.password ? resetPasswordEmail : choosePasswordEmail
  await sendAuthEmail(db, { request }, (context) => template({ to: user.email, name: user.name, url, ...context }))
}

/** Verify an address: at sign-up, or the new address of a change of email (then `user.email` is the new one). */
export async function sendVerificationLink(
  db: Database,
  user: { email: string; name: string },
  link: { url: string; token: string },
  request: Request | undefined,
): Promise<void> {
  const template = isEmailChangeToken(link.token) ? changeEmailEmail : verificationEmail
  await sendAuthEmail(db, { request }, (context) =>
    template({ to: user.email, name: user.name, url: link.url, ...context }),
  )
}

export async function sendMagicLink(db: Database, to: string, url: string, request: Request | undefined) {
  await sendAuthEmail(db, { request }, (context) => magicLinkEmail({ to, url, ...context }))
}

/** A six-digit code: sign-in by email, email verification, password reset or the second factor. */
export async function sendOneTimeCode(
  db: Database,
  options: { to: string; code: string; purpose: OneTimeCodePurpose; request: Request | undefined },
): Promise<void> {
  await sendAuthEmail(db, { request: options.request }, (context) =>
    oneTimeCodeEmail({
      to: options.to,
      code: options.code,
      purpose: options.purpose,
      minutes: oneTimeCodeMinutes,
      ...context,
    }),
  )
}

/**
 * Whether an email-verification token (a signed JWT; Better Auth verifies it when the link is opened) confirms a change
 * of address: those carry `updateTo`. Reading the payload here only picks the email's wording.
 */
function isEmailChangeToken(token: string): boolean {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as unknown
    return typeof payload === 'object' && payload !== null && 'updateTo' in payload
  } catch {
    return false
  }
}
