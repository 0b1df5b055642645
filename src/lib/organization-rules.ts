import { z } from '#/lib/zod'
import { imageUrlField } from './account-rules'

/** Limits the console's forms show and the server enforces (src/server/auth/organization-checks.ts). */
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

// Messages are translation keys (src/lib/errors.ts), so the form and the server's field errors read the same.
export const organizationNameSchema = z
  .string()
  .trim()
  .min(1, 'validation_required')
  .max(organizationLimits.nameMax, 'validation_organization_name_too_long')

export const organizationSlugSchema = z
  .string()
  .trim()
  .min(1, 'validation_required')
  .refine(isValidSlug, 'validation_slug_invalid')

export const organizationFormSchema = z.object({
  name: organizationNameSchema,
  slug: organizationSlugSchema,
  logo: imageUrlField,
})

export const teamNameSchema = z
  .string()
  .trim()
  .min(1, 'validation_required')
  .max(organizationLimits.teamNameMax, 'validation_team_name_too_long')

export const roleNameSchema = z
  .string()
  .trim()
  .min(1, 'validation_required')
  .refine(isValidRoleName, 'validation_role_name_invalid')
