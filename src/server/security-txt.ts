/** How far ahead security.txt's Expires lies: RFC 9116 asks for less than a year, so a reader re-checks yearly. */
const validForDays = 360

/**
 * Where a vulnerability is reported in private: GitHub's security advisory form of the project's repository, or the
 * repository itself when it is hosted elsewhere.
 */
export function vulnerabilityReportUrl(sourceRepositoryUrl: string): string {
  const repository = sourceRepositoryUrl.replace(/\/+$/, '').replace(/\.git$/, '')
  return /^https:\/\/github\.com\/[^/]+\/[^/]+$/.test(repository) ? `${repository}/security/advisories/new` : repository
}

/** /.well-known/security.txt (RFC 9116): whom to tell about a vulnerability, and how. */
export function securityTxt(options: { appUrl: string; sourceRepositoryUrl: string; now: Date }): string {
  const expires = new Date(options.now.getTime() + validForDays * 24 * 60 * 60 * 1000)
  return [
    `Contact: ${vulnerabilityReportUrl(options.sourceRepositoryUrl)}`,
    `Expires: ${expires.toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
    'Preferred-Languages: en, zh',
    `Canonical: ${options.appUrl}/.well-known/security.txt`,
    `Policy: ${options.appUrl}/en/docs/security`,
    '',
  ].join('\n')
}
