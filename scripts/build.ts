import { compileMessages } from './i18n.ts'
import { assertSupportedNode, runNodeBin } from './project.ts'

export async function build(): Promise<void> {
  await compileMessages()
  runNodeBin('node_modules/vite/bin/vite.js', ['build'])
}

if (import.meta.main) {
  assertSupportedNode()
  await build()
}
