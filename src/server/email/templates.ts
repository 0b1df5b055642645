import type { Locale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
import type { EmailMessage } from './mailer'

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[char]};`)

/** One call-to-action email, as HTML and as plain text, in the recipient's language. */
export function actionEmail(options: {
  to: string
  subject: string
  greeting: string
  body: string
  action: string
  url: string
  footer: string
}): EmailMessage {
  const { to, subject, greeting, body, action, url, footer } = options
  const text = `${greeting}\n\n${body}\n\n${action}: ${url}\n\n${footer}\n`
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1c1917">
<p>${escapeHtml(greeting)}</p><p>${escapeHtml(body)}</p>
<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 16px;background:#c2611f;color:#fff;border-radius:8px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="font-size:13px;color:#57534e">${escapeHtml(footer)}<br>${escapeHtml(url)}</p></body></html>`
  return { to, subject, text, html }
}

export function verificationEmail(options: { to: string; name: string; url: string; product: string; locale: Locale }) {
  const { locale } = options
  return actionEmail({
    to: options.to,
    subject: m.email_verify_subject({ product: options.product }, { locale }),
    greeting: m.email_greeting({ name: options.name }, { locale }),
    body: m.email_verify_body({ product: options.product }, { locale }),
    action: m.email_verify_action({}, { locale }),
    url: options.url,
    footer: m.email_ignore_footer({}, { locale }),
  })
}

/** The link that confirms a NEW address (change of email); the account keeps the old one until it is opened. */
export function changeEmailEmail(options: { to: string; name: string; url: string; product: string; locale: Locale }) {
  const { locale } = options
  return actionEmail({
    to: options.to,
    subject: m.account_email_change_mail_subject({ product: options.product }, { locale }),
    greeting: m.email_greeting({ name: options.name }, { locale }),
    body: m.account_email_change_mail_body({ product: options.product }, { locale }),
    action: m.account_email_change_mail_action({}, { locale }),
    url: options.url,
    footer: m.email_ignore_footer({}, { locale }),
  })
}

export function resetPasswordEmail(options: {
  to: string
  name: string
  url: string
  product: string
  locale: Locale
}) {
  const { locale } = options
  return actionEmail({
    to: options.to,
    subject: m.email_reset_subject({ product: options.product }, { locale }),
    greeting: m.email_greeting({ name: options.name }, { locale }),
    body: m.email_reset_body({}, { locale }),
    action: m.email_reset_action({}, { locale }),
    url: options.url,
    footer: m.email_ignore_footer({}, { locale }),
  })
}

/** The same link for an account that has no password yet (created by an admin, or by a magic link or provider). */
export function choosePasswordEmail(options: {
  to: string
  name: string
  url: string
  product: string
  locale: Locale
}) {
  const { locale } = options
  return actionEmail({
    to: options.to,
    subject: m.email_choose_password_subject({ product: options.product }, { locale }),
    greeting: m.email_greeting({ name: options.name }, { locale }),
    body: m.email_choose_password_body({ product: options.product }, { locale }),
    action: m.email_choose_password_action({}, { locale }),
    url: options.url,
    footer: m.email_ignore_footer({}, { locale }),
  })
}

export function magicLinkEmail(options: { to: string; url: string; product: string; locale: Locale }) {
  const { locale } = options
  return actionEmail({
    to: options.to,
    subject: m.email_magic_link_subject({ product: options.product }, { locale }),
    greeting: m.email_greeting_plain({}, { locale }),
    body: m.email_magic_link_body({ product: options.product }, { locale }),
    action: m.email_magic_link_action({}, { locale }),
    url: options.url,
    footer: m.email_ignore_footer({}, { locale }),
  })
}

export type OneTimeCodePurpose = 'sign-in' | 'email-verification' | 'forget-password' | 'change-email' | 'two-factor'

const codeSubjects = {
  'sign-in': m.email_code_sign_in_subject,
  'email-verification': m.email_code_verify_subject,
  'forget-password': m.email_code_reset_subject,
  'change-email': m.email_code_change_email_subject,
  'two-factor': m.email_code_two_factor_subject,
} satisfies Record<OneTimeCodePurpose, unknown>

/** A one-time code (sign-in, verification, reset, two-factor), as HTML and text, in the recipient's language. */
export function oneTimeCodeEmail(options: {
  to: string
  code: string
  purpose: OneTimeCodePurpose
  minutes: number
  product: string
  locale: Locale
}): EmailMessage {
  const { locale, code, minutes, product } = options
  const subject = codeSubjects[options.purpose]({ product, code }, { locale })
  const greeting = m.email_greeting_plain({}, { locale })
  const body = m.email_code_body({ product, minutes: String(minutes) }, { locale })
  const footer = m.email_ignore_footer({}, { locale })
  const text = `${greeting}\n\n${body}\n\n${code}\n\n${footer}\n`
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1c1917">
<p>${escapeHtml(greeting)}</p><p>${escapeHtml(body)}</p>
<p style="font-size:28px;font-weight:600;letter-spacing:6px;font-family:ui-monospace,monospace">${escapeHtml(code)}</p>
<p style="font-size:13px;color:#57534e">${escapeHtml(footer)}</p></body></html>`
  return { to: options.to, subject, text, html }
}

/** An invitation to join an organization, in the language the inviter chose for the invitee. */
export function invitationEmail(options: {
  to: string
  inviterName: string
  organizationName: string
  role: string
  url: string
  days: number
  product: string
  locale: Locale
}) {
  const { locale, product } = options
  return actionEmail({
    to: options.to,
    subject: m.email_invitation_subject(
      { inviter: options.inviterName, organization: options.organizationName, product },
      { locale },
    ),
    greeting: m.email_greeting_plain({}, { locale }),
    body: m.email_invitation_body(
      {
        inviter: options.inviterName,
        organization: options.organizationName,
        role: options.role,
        product,
        days: String(options.days),
      },
      { locale },
    ),
    action: m.email_invitation_action({}, { locale }),
    url: options.url,
    footer: m.email_invitation_footer({}, { locale }),
  })
}

/** To the owner of an account whose sign-in was paused after repeated failures (src/server/auth/sign-in-throttle.ts). */
export function signInLockedEmail(options: {
  to: string
  name: string
  minutes: number
  url: string
  product: string
  locale: Locale
}) {
  const { locale, product } = options
  return actionEmail({
    to: options.to,
    subject: m.email_sign_in_locked_subject({ product }, { locale }),
    greeting: m.email_greeting({ name: options.name }, { locale }),
    body: m.email_sign_in_locked_body({ product, minutes: String(options.minutes) }, { locale }),
    action: m.email_sign_in_locked_action({}, { locale }),
    url: options.url,
    footer: m.email_sign_in_locked_footer({}, { locale }),
  })
}

/** "Send a test email" (Console → System): to the app admin who asked, to see that mail arrives and how it looks. */
export function testEmail(options: { to: string; name: string; url: string; product: string; locale: Locale }) {
  const { locale, product } = options
  return actionEmail({
    to: options.to,
    subject: m.email_test_subject({ product }, { locale }),
    greeting: m.email_greeting({ name: options.name }, { locale }),
    body: m.email_test_body({ product }, { locale }),
    action: m.email_test_action({}, { locale }),
    url: options.url,
    footer: m.email_test_footer({}, { locale }),
  })
}
