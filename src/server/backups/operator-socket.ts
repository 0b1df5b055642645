import { chmodSync, existsSync, unlinkSync } from 'node:fs'
import { createServer, request, type Server } from 'node:http'
import path from 'node:path'
import { log } from '../log'
import { backUpNow } from './backups'

/**
 * The embedded database has one connection, held by the one server process: `npm run db:backup` cannot open the data
 * folder beside it. That server listens on a Unix socket in DATA_DIR (only its owner may connect) and takes the backup
 * itself when asked; the command (scripts/db-backup.ts) then only waits and prints where it went.
 */
export const operatorSocketName = 'operator.sock'

/** Unix socket paths are limited to 107 bytes on Linux. */
const socketPathLimit = 107

let server: Server | undefined

export function operatorSocketPath(dataDir: string): string {
  return path.resolve(dataDir, operatorSocketName)
}

/** Starts answering operator requests on DATA_DIR's socket; a stale socket left by a crash is replaced. */
export async function startOperatorSocket(dataDir: string): Promise<void> {
  if (server) return
  const socket = operatorSocketPath(dataDir)
  if (Buffer.byteLength(socket) > socketPathLimit) {
    log().warn(
      { socket },
      'DATA_DIR is too long a path for the operator socket: npm run db:backup needs the server stopped',
    )
    return
  }
  if (existsSync(socket)) {
    if (await operatorSocketAnswers(dataDir)) {
      log().warn({ socket }, 'another server answers on this data folder’s operator socket')
      return
    }
    unlinkSync(socket)
  }
  const listening = createServer((incoming, answer) => {
    const reply = (status: number, body: object) => {
      answer.writeHead(status, { 'content-type': 'application/json' })
      answer.end(JSON.stringify(body))
    }
    if (incoming.method !== 'POST' || incoming.url !== '/backups') return reply(404, { error: 'unknown request' })
    let text = ''
    incoming.setEncoding('utf8')
    incoming.on('data', (chunk: string) => {
      text += chunk
    })
    incoming.on('end', () => {
      let destination: string | undefined
      try {
        const body = JSON.parse(text || '{}') as { destination?: unknown }
        destination = typeof body.destination === 'string' && body.destination ? body.destination : undefined
      } catch {
        return reply(400, { error: 'the request is not JSON' })
      }
      backUpNow('command', { destination }).then(
        (taken) => reply(200, { location: taken.location, bytes: taken.bytes, manifest: taken.manifest }),
        (error: unknown) => {
          log().error({ err: error }, 'a backup asked for on the operator socket failed')
          reply(500, { error: error instanceof Error ? error.message : String(error) })
        },
      )
    })
  })
  await new Promise<void>((resolve, reject) => {
    listening.once('error', reject)
    listening.listen(socket, () => resolve())
  })
  chmodSync(socket, 0o600)
  listening.unref()
  server = listening
}

export async function stopOperatorSocket(): Promise<void> {
  const stopping = server
  server = undefined
  if (stopping) await new Promise<void>((resolve) => stopping.close(() => resolve()))
}

/** Whether a server holds `dataDir` and answers on its socket. */
export async function operatorSocketAnswers(dataDir: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = request({ socketPath: operatorSocketPath(dataDir), path: '/', method: 'GET' }, (answer) => {
      answer.resume()
      resolve(true)
    })
    probe.on('error', () => resolve(false))
    probe.setTimeout(2000, () => {
      probe.destroy()
      resolve(false)
    })
    probe.end()
  })
}
