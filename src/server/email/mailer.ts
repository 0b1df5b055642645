import { createTransport, type Transporter } from 'nodemailer'
import type { Database } from '../db/client'
import { emailOutbox } from '../db/schema'
import { getEnv } from '../env'

export interface EmailMessage {
  to: string
  subject: string
  text: string
  html: string
}

let transport: Transporter | undefined

/**
 * Sends through SMTP when SMTP_URL is set. Without it the message goes to the email_outbox table and its text
 * (with the link or code) to the server log, so a fresh install can still verify and reset.
 */
export async function sendEmail(db: Database, message: EmailMessage): Promise<void> {
  const env = getEnv()
  if (env.SMTP_URL) {
    transport ??= createTransport(env.SMTP_URL)
    await transport.sendMail({ from: env.MAIL_FROM, ...message })
    return
  }
  await db.insert(emailOutbox).values(message)
  console.log(
    `[email] SMTP_URL is not set; kept in the outbox for ${message.to}: "${message.subject}"\n${message.text}`,
  )
}
