import { watch } from 'node:fs'
import path from 'node:path'
import { installedAppNames, messageCatalogues } from './generate-apps.ts'
import { compileMessages } from './i18n.ts'
import { assertSupportedNode, root, runNodeBin } from './project.ts'

// The development server with hot reload; UI strings recompile when a message catalogue changes (messages/*.json,
// and each installed app's src/features/<app>/messages/*.json).
assertSupportedNode()
await compileMessages()
let pending: NodeJS.Timeout | undefined
for (const catalogue of messageCatalogues(installedAppNames())) {
  watch(path.join(root, path.dirname(catalogue)), () => {
    clearTimeout(pending)
    pending = setTimeout(() => compileMessages().catch((error) => console.error('[i18n]', error)), 100)
  })
}
// Sign-in, emailed links and payment returns all lead to APP_URL; a session begun on another name for this machine
// (127.0.0.1 for localhost) would end signed out half-way, so the address to open is said before anything else.
const appUrl = (process.env.APP_URL || 'http://localhost:3000').replace(/\/$/, '')
console.log(`Open ${appUrl} (APP_URL): sign-in, emailed links and payments come back to this address only.`)
runNodeBin('node_modules/vite/bin/vite.js', ['dev', ...process.argv.slice(2)], {
  ...process.env,
  NODE_ENV: 'development',
})
