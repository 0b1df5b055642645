// Every installed app can be taken out: in a copy of the project, `npm run hatch -- remove <app>` deletes it and its
// line in the list, and what is left passes the type check (run by the command), the lint and the import rules.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { installedApps } from '#/apps'

const project = path.resolve('.')
const copies: string[] = []

/** The project's files as git sees them (committed or not, never ignored), plus what is compiled for the type check. */
function copyOfProject(): string {
  const copy = mkdtempSync(path.join(tmpdir(), 'hatch-removal-'))
  copies.push(copy)
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: project,
    encoding: 'utf8',
  })
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    if (!existsSync(path.join(project, file))) continue // deleted in the working tree
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true })
    cpSync(path.join(project, file), path.join(copy, file))
  }
  for (const compiled of ['src/paraglide', '.source']) {
    cpSync(path.join(project, compiled), path.join(copy, compiled), { recursive: true })
  }
  // One install shared by every copy.
  symlinkSync(path.join(project, 'node_modules'), path.join(copy, 'node_modules'), 'dir')
  return copy
}

function run(copy: string, script: string, args: string[]) {
  const result = spawnSync(process.execPath, [script, ...args], { cwd: copy, encoding: 'utf8' })
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` }
}

afterAll(() => {
  for (const copy of copies) rmSync(copy, { recursive: true, force: true })
})

describe.each(installedApps)('removing the %s app', { timeout: 240_000 }, (app) => {
  it('leaves a project that passes the type check, the lint and the import rules', () => {
    const copy = copyOfProject()
    const removal = run(copy, 'scripts/hatch.ts', ['remove', app])
    expect(removal.status, removal.output).toBe(0)
    expect(existsSync(path.join(copy, 'src/features', app)), 'its folder is gone').toBe(false)
    expect(readFileSync(path.join(copy, 'src/apps.ts'), 'utf8')).not.toContain(`'${app}'`)
    expect(readFileSync(path.join(copy, 'src/routeTree.gen.ts'), 'utf8')).not.toContain(`/features/${app}/`)
    const lint = run(copy, 'node_modules/@biomejs/biome/bin/biome', ['check', '.'])
    expect(lint.status, lint.output).toBe(0)
    const imports = run(copy, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs', [
      'src',
      '--config',
      '.dependency-cruiser.cjs',
    ])
    expect(imports.status, imports.output).toBe(0)
  })
})
