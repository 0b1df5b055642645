import { compileMessages } from './i18n.ts'
import { assertSupportedNode, runNodeBin } from './project.ts'

export async function build(): Promise<void> {
  await compileMessages()
  // Always a production build: an inherited NODE_ENV (a shell's "development", Vitest's "test") would make Vite
  // emit development JSX that the production React runtime cannot render.
  runNodeBin('node_modules/vite/bin/vite.js', ['build'], { ...process.env, NODE_ENV: 'production' })
}

if (import.meta.main) {
  assertSupportedNode()
  await build()
}
