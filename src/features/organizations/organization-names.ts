// Organization names, slugs and role names: plain rules without zod, so a route's URL check can use them too.

/** Limits the console's forms show and the server enforces (src/features/organizations/server/organization-checks.ts). */
export const organizationLimits = {
  nameMax: 80,
  slugMin: 3,
  slugMax: 48,
  teamNameMax: 60,
  roleNameMax: 32,
  /** Days an invitation can be accepted. */
  invitationDays: 7,
} as const

/** Lowercase letters, digits and single hyphens between them: safe in URLs and easy to read aloud. */
const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
/** Custom role names: no comma (a member's roles are stored comma-separated) and no spaces. */
const roleNamePattern = /^[a-z][a-z0-9-]*$/

/** A URL slug from a name ("Acme Inc." → "acme-inc"); empty when the name has no Latin letters or digits. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, organizationLimits.slugMax)
    .replace(/-+$/g, '')
}

export function isValidSlug(slug: string): boolean {
  return (
    slug.length >= organizationLimits.slugMin && slug.length <= organizationLimits.slugMax && slugPattern.test(slug)
  )
}

export function isValidRoleName(role: string): boolean {
  return role.length >= 1 && role.length <= organizationLimits.roleNameMax && roleNamePattern.test(role)
}
