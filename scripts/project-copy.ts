// A throwaway copy of the project, for checks that change it (removing apps) without touching the working tree:
// used by tests/integration/app-removal.test.ts and scripts/minimal-kit.ts.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

/**
 * The project's files as git sees them (committed or not, never ignored), plus what is compiled for the type check
 * (Paraglide's messages, fumadocs' .source) and, when asked, the build in dist/. node_modules is a link to the
 * project's own: one install shared by every copy. `asCloned` leaves out what is compiled, as a fresh clone has it.
 */
export function copyOfProject(
  project: string,
  options: { prefix?: string; withBuild?: boolean; asCloned?: boolean } = {},
): string {
  const copy = mkdtempSync(path.join(tmpdir(), options.prefix ?? 'hatch-copy-'))
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: project,
    encoding: 'utf8',
  })
  if (listed.status !== 0) throw new Error(`git ls-files failed in ${project}: ${listed.stderr}`)
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    if (!existsSync(path.join(project, file))) continue // deleted in the working tree
    if (file === 'node_modules') continue // a link to an install elsewhere, which git does not ignore as a folder
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true })
    cpSync(path.join(project, file), path.join(copy, file))
  }
  for (const compiled of options.asCloned ? [] : ['src/paraglide', '.source']) {
    cpSync(path.join(project, compiled), path.join(copy, compiled), { recursive: true })
  }
  // Copied last, so the build is newer than every copied source and the copy does not find it stale.
  if (options.withBuild) cpSync(path.join(project, 'dist'), path.join(copy, 'dist'), { recursive: true })
  symlinkSync(path.join(project, 'node_modules'), path.join(copy, 'node_modules'), 'dir')
  // An empty repository, so that git lists the copy's files as it lists a checkout's: tests run in a copy (the minimal
  // kit's) copy it in turn.
  spawnSync('git', ['init', '--quiet'], { cwd: copy })
  return copy
}

export function removeCopy(copy: string): void {
  rmSync(copy, { recursive: true, force: true })
}
