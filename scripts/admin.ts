// `npm run admin -- grant <email>` makes an account an app admin (Configuration, Users); `revoke <email>` takes it
// back. With the embedded database, stop the server first: only one process can open the data folder.
import { pathToFileURL } from 'node:url'
import { assertSupportedNode, buildIsStale, serverBundle } from './project.ts'

const usage = 'Usage: npm run admin -- grant <email> | npm run admin -- revoke <email>'
const [command, email] = process.argv.slice(2)
if ((command !== 'grant' && command !== 'revoke') || !email || !email.includes('@')) {
  console.error(usage)
  process.exit(2)
}

assertSupportedNode()
if (buildIsStale()) await (await import('./build.ts')).build()
const { lifecycle, operatorTasks } = await import(pathToFileURL(serverBundle).href)
let exitCode = 0
try {
  await lifecycle.ensureServerReady()
  const role = command === 'grant' ? 'admin' : 'user'
  if (await operatorTasks.setAppRole(email, role)) {
    console.log(command === 'grant' ? `${email} is now an app admin.` : `${email} is no longer an app admin.`)
  } else {
    console.error(`No account has the email address ${email}.`)
    exitCode = 1
  }
} catch (error) {
  console.error(error instanceof Error && error.name === 'EnvError' ? error.message : error)
  exitCode = 1
} finally {
  await lifecycle.closeServerResources().catch(() => undefined)
}
process.exit(exitCode)
