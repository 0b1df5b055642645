import path from 'node:path'

/** Where the end-to-end SMTP server (tests/e2e/server.ts) writes each message it receives. */
export const mailboxDir = path.resolve(import.meta.dirname, '../../test-results/mailbox')
