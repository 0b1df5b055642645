// `node scripts/audit.ts` (a step of `npm test`): no high or critical advisory in the production dependencies, except
// those in audit-allowlist.json, each with its reason and a review younger than six months.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { type AllowedAdvisory, allowListProblems, judgeAudit, reviewValidDays } from './audit-report.ts'
import { root } from './project.ts'

const allowListFile = path.join(root, 'audit-allowlist.json')
const allowList = (JSON.parse(readFileSync(allowListFile, 'utf8')) as { advisories?: unknown }).advisories
const problems = allowListProblems(allowList)
if (problems.length > 0) {
  console.error(`audit-allowlist.json is not valid:\n  ${problems.join('\n  ')}`)
  process.exit(1)
}

// npm exits 1 whenever it finds anything (or the endpoint fails): the JSON on stdout says which.
const audit = spawnSync('npm', ['audit', '--omit=dev', '--json'], { cwd: root, encoding: 'utf8', shell: false })
if (audit.error) {
  console.error(`Could not run npm audit: ${audit.error.message}`)
  process.exit(1)
}
const outcome = judgeAudit(audit.stdout, allowList as AllowedAdvisory[], new Date())

if (outcome.kind === 'unavailable') {
  // An environment limit, not a pass: say so loudly, and leave the verdict to a run against a registry with data.
  console.log(
    [
      'NOT CHECKED: the npm registry in use offers no advisory data, so nothing was checked.',
      `  npm audit answered: ${outcome.reason}`,
      '  A run where the registry answers npm audit (as the public npm registry does) gives the verdict.',
    ].join('\n'),
  )
  process.exit(0)
}

const describe = (advisory: { severity: string; package: string; title: string; url: string }) =>
  `  ${advisory.severity.padEnd(8)} ${advisory.package}: ${advisory.title} (${advisory.url})`
if (outcome.lower.length > 0) {
  console.log(`Low and moderate advisories (not blocking):\n${outcome.lower.map(describe).join('\n')}`)
}
if (outcome.allowed.length > 0) {
  console.log(`Allowed by audit-allowlist.json (reviewed within ${reviewValidDays} days):`)
  console.log(outcome.allowed.map(describe).join('\n'))
}
for (const note of outcome.staleAllowances) console.log(`Allow-list: ${note}`)
if (outcome.blocking.length > 0) {
  console.error(
    `High or critical advisories in production dependencies:\n${outcome.blocking.map(describe).join('\n')}\n` +
      'Upgrade the package (npm audit fix, or an override in package.json), or, if it cannot be fixed yet, add it to ' +
      'audit-allowlist.json with its reason and today as its review date.',
  )
  process.exit(1)
}
console.log('No high or critical advisory in production dependencies.')
