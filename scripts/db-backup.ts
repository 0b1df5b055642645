// `npm run db:backup [-- --to <folder | s3://bucket/prefix>]`: a consistent backup while the server runs, on either
// database: the database, the uploaded files, the generated auth secret and a manifest with counts and checksums
// (src/server/backups; docs/decisions/049-backups.md). Default destination: BACKUP_TO, else DATA_DIR/backups.
import { request } from 'node:http'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { runOperatorTask } from './project.ts'

const { values } = parseArgs({ options: { to: { type: 'string' } }, allowPositionals: false })
const destination = values.to?.trim() || undefined

interface Taken {
  location: string
  bytes: number
  manifest: { tables: Record<string, number>; storedFiles: unknown[]; engine: string }
}

/**
 * Asks the server that holds the embedded database (its socket in DATA_DIR, src/server/backups/operator-socket.ts)
 * to take the backup; undefined when no server listens there.
 */
function askRunningServer(dataDir: string): Promise<{ status: number; body: Record<string, unknown> } | undefined> {
  return new Promise((resolve, reject) => {
    const asked = request(
      {
        socketPath: path.resolve(dataDir, 'operator.sock'),
        path: '/backups',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      },
      (answer) => {
        let text = ''
        answer.setEncoding('utf8')
        answer.on('data', (chunk: string) => {
          text += chunk
        })
        answer.on('end', () => {
          try {
            resolve({ status: answer.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> })
          } catch (error) {
            reject(error)
          }
        })
      },
    )
    asked.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(undefined)
      else reject(error)
    })
    asked.end(
      JSON.stringify({
        destination: destination && !/^s3:/.test(destination) ? path.resolve(destination) : destination,
      }),
    )
  })
}

function report(taken: Taken, how: string): void {
  const rows = Object.values(taken.manifest.tables).reduce((sum, count) => sum + count, 0)
  console.log(`Backup taken ${how}: ${taken.location}`)
  console.log(
    `  ${(taken.bytes / 1024 / 1024).toFixed(1)} MB; ${Object.keys(taken.manifest.tables).length} tables, ${rows} rows; ` +
      `${taken.manifest.storedFiles.length} uploaded file(s)`,
  )
  console.log(`Restore it into an empty database with: npm run db:restore -- ${taken.location}`)
}

await runOperatorTask(
  async (operatorTasks) => {
    if (operatorTasks.embedded()) {
      const answer = await askRunningServer(operatorTasks.dataDir())
      if (answer) {
        if (answer.status !== 200) {
          console.error(`The running server could not take the backup: ${String(answer.body.error)}`)
          return 1
        }
        report(answer.body as unknown as Taken, 'by the running server')
        return 0
      }
    }
    report(
      await operatorTasks.backup(destination && !/^s3:/.test(destination) ? path.resolve(destination) : destination),
      'by this command',
    )
    return 0
  },
  { open: false },
)
