import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { expect } from '@playwright/test'
import { mailboxDir } from './mailbox-location.ts'

export interface ReceivedEmail {
  to: string
  subject: string
  text: string
  html: string
  /** Every http(s) URL in the plain-text part, in order. */
  links: string[]
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n')
  const head = end === -1 ? raw : raw.slice(0, end)
  const headers = new Map<string, string>()
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':')
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim())
  }
  return { headers, body: end === -1 ? '' : raw.slice(end + 4) }
}

/** =?UTF-8?B?...?= and =?UTF-8?Q?...?= words in headers (non-ASCII subjects). */
function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, kind: string, data: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(data, 'base64').toString('utf8')
      : decodeQuotedPrintable(data.replaceAll('_', ' ')),
  )
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => `%${hex}`)
  try {
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'))
  } catch {
    return bytes
  }
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '').toLowerCase()
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body)
  return body
}

function parse(raw: string): ReceivedEmail {
  const { headers, body } = splitHeaders(raw)
  const parts: { type: string; text: string }[] = []
  const boundary = /boundary="?([^";]+)"?/i.exec(headers.get('content-type') ?? '')?.[1]
  if (boundary) {
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break
      const part = splitHeaders(chunk.replace(/^\r\n/, ''))
      parts.push({ type: part.headers.get('content-type') ?? '', text: decodeBody(part.headers, part.body) })
    }
  } else {
    parts.push({ type: headers.get('content-type') ?? 'text/plain', text: decodeBody(headers, body) })
  }
  const text = parts.find((part) => part.type.startsWith('text/plain'))?.text ?? ''
  return {
    to: headers.get('to') ?? '',
    subject: decodeWords(headers.get('subject') ?? ''),
    text,
    html: parts.find((part) => part.type.startsWith('text/html'))?.text ?? '',
    links: text.match(/https?:\/\/\S+/g) ?? [],
  }
}

/** Every message the app has sent so far, oldest first. */
export function allEmails(): ReceivedEmail[] {
  return readdirSync(mailboxDir)
    .sort()
    .map((file) => parse(readFileSync(path.join(mailboxDir, file), 'utf8')))
}

/** The newest message the app sent to `to`, waiting for it to arrive. */
export async function waitForEmail(to: string, options: { subject?: RegExp } = {}): Promise<ReceivedEmail> {
  let found: ReceivedEmail | undefined
  await expect
    .poll(
      () => {
        const files = readdirSync(mailboxDir).sort().reverse()
        for (const file of files) {
          const email = parse(readFileSync(path.join(mailboxDir, file), 'utf8'))
          if (email.to.includes(to) && (!options.subject || options.subject.test(email.subject))) {
            found = email
            return true
          }
        }
        return false
      },
      { message: `an email to ${to}`, timeout: 15_000 },
    )
    .toBe(true)
  if (!found) throw new Error(`no email to ${to}`)
  return found
}
