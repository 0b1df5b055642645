// `npm run db:restore -- <backup folder | s3://bucket/prefix/hatch-backup-…> [--force]`: restores a backup taken by
// `npm run db:backup` (or the schedule) into this install's database, files and DATA_DIR, checks the restored
// database against the backup's manifest, and refuses a target that holds data unless --force.
import { request } from 'node:http'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { runOperatorTask } from './project.ts'

const usage = 'Usage: npm run db:restore -- <backup folder | s3://bucket/prefix/hatch-backup-…> [--force]'
let source: string | undefined
let force = false
try {
  const { values, positionals } = parseArgs({
    options: { force: { type: 'boolean', default: false } },
    allowPositionals: true,
  })
  source = positionals.length === 1 ? positionals[0] : undefined
  force = values.force === true
} catch (error) {
  console.error((error as Error).message)
}
if (!source) {
  console.error(usage)
  process.exit(2)
}

/** Whether a server answers on DATA_DIR's operator socket: it holds the embedded database. */
function serverHolds(dataDir: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = request(
      { socketPath: path.resolve(dataDir, 'operator.sock'), path: '/', method: 'GET' },
      (answer) => {
        answer.resume()
        resolve(true)
      },
    )
    probe.on('error', () => resolve(false))
    probe.end()
  })
}

await runOperatorTask(
  async (operatorTasks) => {
    if (operatorTasks.embedded() && (await serverHolds(operatorTasks.dataDir()))) {
      console.error('A server is running on this DATA_DIR: stop it before restoring into it.')
      return 1
    }
    const address = /^s3:/.test(source) ? source : path.resolve(source)
    const restored = await operatorTasks.restore(address, force)
    console.log(`Restored ${address}`)
    console.log(
      `  taken ${restored.manifest.startedAt} by Hatch ${restored.manifest.app.version}, ${restored.manifest.migrations.applied} migrations`,
    )
    for (const note of restored.notes) console.log(`  ${note}`)
    console.log('Start the server (npm start): it applies any newer migrations.')
    return 0
  },
  { open: false },
)
