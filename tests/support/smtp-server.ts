import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

/** A real SMTP server for tests: it keeps what it receives and can refuse the next messages (a 451, as when busy). */
export interface TestSmtpServer {
  url: string
  /** Each message received, as sent (headers and body). */
  received: string[]
  /** The next `count` messages are refused with a temporary error. */
  refuseNext(count: number): void
  close(): Promise<void>
}

export async function startTestSmtpServer(port = 0): Promise<TestSmtpServer> {
  const received: string[] = []
  let refusals = 0
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        if (refusals > 0) {
          refusals--
          const busy = Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 })
          done(busy)
          return
        }
        received.push(Buffer.concat(chunks).toString('utf8'))
        done()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const address = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    received,
    refuseNext: (count) => {
      refusals = count
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
