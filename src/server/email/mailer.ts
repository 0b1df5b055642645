import { createTransport, type Transporter } from 'nodemailer'
import type { Database } from '../db/client'
import { emailOutbox } from '../db/schema'
import { getEnv } from '../env'
import { outboxNotice } from './outbox-notice'

export interface EmailMessage {
  to: string
  subject: string
  text: string
  html: string
}

/**
 * How long one SMTP step may take (connecting, the server's greeting, any later reply). nodemailer's defaults are
 * two minutes for the greeting and ten for the socket: a mail server that accepts and never answers would hold the
 * sign-up or reset that sends the message that long. Ten seconds is ample for a working server across the world.
 */
export const smtpTimeoutMs = 10_000

let cached: { url: string; timeoutMs: number; transport: Transporter } | undefined

function transportFor(url: string, timeoutMs: number): Transporter {
  if (cached?.url !== url || cached.timeoutMs !== timeoutMs) {
    cached = {
      url,
      timeoutMs,
      transport: createTransport({
        url,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
      }),
    }
  }
  return cached.transport
}

/**
 * Sends through SMTP when SMTP_URL is set. Without it, or when the mail server fails or does not answer in time, the
 * message goes to the email_outbox table (and, without SMTP, a notice to the server log: outbox-notice.ts): a message
 * is never lost, and the request that sends it (a sign-up, a reset) finishes either way.
 */
export async function sendEmail(
  db: Database,
  message: EmailMessage,
  options: { timeoutMs?: number } = {},
): Promise<void> {
  const env = getEnv()
  if (env.SMTP_URL) {
    try {
      await transportFor(env.SMTP_URL, options.timeoutMs ?? smtpTimeoutMs).sendMail({ from: env.MAIL_FROM, ...message })
      return
    } catch (error) {
      console.error(`[email] sending to ${message.to} failed; kept in the outbox:`, (error as Error).message)
      await db.insert(emailOutbox).values(message)
      return
    }
  }
  await db.insert(emailOutbox).values(message)
  console.log(outboxNotice(message, env.APP_URL))
}
