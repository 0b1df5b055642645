import type { EmailMessage } from './mailer'

/** Loopback names: a server whose public URL is one of these is read only by whoever runs it. */
const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]'])

export function isOnThisMachine(appUrl: string): boolean {
  return loopbackHosts.has(new URL(appUrl).hostname)
}

/** Where an app admin reads a kept email: Console → System opens it (the language comes from the reader's cookie). */
export function keptEmailUrl(appUrl: string, id: number): string {
  return `${appUrl}/console/system?email=${id}`
}

/**
 * What the server log says about an email kept in the outbox (SMTP_URL unset). On the developer's own machine it
 * carries the whole text, so a fresh install can verify and reset from the terminal; anywhere else the log is read
 * by more people and tools than the mailbox, and a sign-in link or code in it would let them in, so it names only
 * the recipient and the subject. Either way it says where an app admin reads the email as it would have been sent.
 */
export function outboxNotice(
  message: Pick<EmailMessage, 'to' | 'subject' | 'text'>,
  appUrl: string,
  keptId: number,
): string {
  const where = `an app admin reads it in Console → System: ${keptEmailUrl(appUrl, keptId)}`
  if (isOnThisMachine(appUrl)) {
    return `[email] SMTP_URL is not set; kept in the outbox for ${message.to}: "${message.subject}"\n${where}\n${message.text}`
  }
  return `[email] SMTP_URL is not set; kept in the outbox for ${message.to}: "${withoutCodes(message.subject)}"; ${where}`
}

/**
 * A one-time code's subject starts with the code ("482913 is your Hatch sign-in code"): the log gets dots instead,
 * for it and for anything as long as a token (no word of a subject is 20 letters long).
 */
function withoutCodes(subject: string): string {
  return subject.replace(/\d{6,}|[\w-]{20,}/g, '••••••')
}
