import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { testPorts } from '../support/ports'

// With the apps' own tests (src/features/<app>/tests), which run beside them.
const parallelTestFolders = [
  'tests/integration',
  'tests/fuzz',
  ...readdirSync('src/features', { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `src/features/${entry.name}/tests`)
    .filter((folder) => existsSync(folder)),
]

/** Test files that run in parallel; not an app's end-to-end specs, which use the browser tests' server (E2E_PORT). */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !/[\\/]e2e([\\/]|$)/.test(entry.parentPath))
    .map((entry) => path.join(entry.parentPath, entry.name))
}

describe('fixed ports of the servers tests start', () => {
  it('are all different, so test files running side by side never take each other’s port', () => {
    const ports = Object.values(testPorts).flat()
    const taken = ports.filter((port, index) => ports.indexOf(port) !== index)
    expect(taken, 'ports named twice in tests/support/ports.ts').toEqual([])
  })

  it('are named in tests/support/ports.ts, not written into a test file', () => {
    const written = parallelTestFolders.flatMap(filesUnder).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => (/\b3[2-4]\d\d\b/.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    )
    expect(written).toEqual([])
  })
})
