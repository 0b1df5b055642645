// `npm run admin -- grant <email>` makes an account an app admin (Configuration, Users); `revoke <email>` takes it
// back. With the embedded database, stop the server first: only one process can open the data folder.
import { runOperatorTask } from './project.ts'

const usage = 'Usage: npm run admin -- grant <email> | npm run admin -- revoke <email>'
const [command, email] = process.argv.slice(2)
if ((command !== 'grant' && command !== 'revoke') || !email || !email.includes('@')) {
  console.error(usage)
  process.exit(2)
}

await runOperatorTask(async (operatorTasks) => {
  const role = command === 'grant' ? 'admin' : 'user'
  if (await operatorTasks.setAppRole(email, role)) {
    console.log(command === 'grant' ? `${email} is now an app admin.` : `${email} is no longer an app admin.`)
    return 0
  }
  console.error(`No account has the email address ${email}.`)
  return 1
})
