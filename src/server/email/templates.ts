import type { Locale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
import type { EmailMessage } from './mailer'

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[char]};`)

/** One call-to-action email, as HTML and as plain text, in the recipient's language. */
function actionEmail(options: {
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
