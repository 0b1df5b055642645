import { watch } from 'node:fs'
import path from 'node:path'
import { compileMessages } from './i18n.ts'
import { assertSupportedNode, root, runNodeBin } from './project.ts'

// The development server with hot reload; UI strings recompile when messages/*.json change.
assertSupportedNode()
await compileMessages()
let pending: NodeJS.Timeout | undefined
watch(path.join(root, 'messages'), () => {
  clearTimeout(pending)
  pending = setTimeout(() => compileMessages().catch((error) => console.error('[i18n]', error)), 100)
})
runNodeBin('node_modules/vite/bin/vite.js', ['dev', ...process.argv.slice(2)], {
  ...process.env,
  NODE_ENV: 'development',
})
