import { isValidRoleName, isValidSlug, organizationLimits } from '#/features/organizations/organization-names'
import { z } from '#/lib/zod'

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
