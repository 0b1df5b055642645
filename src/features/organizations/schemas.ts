import { z } from 'zod'
import { builtInRoles } from '#/lib/access-control'
import { emailField } from '#/lib/account-rules'
import { locales } from '#/lib/i18n'
import { organizationFormSchema, roleNameSchema, teamNameSchema } from '#/lib/organization-rules'

export const activityPageInput = z.object({
  cursor: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(100).default(20),
})

export const transferOwnershipInput = z.object({ memberId: z.string().min(1).max(100) })

export const invitationPreviewInput = z.object({ id: z.string().min(1).max(100) })

export const createOrganizationSchema = organizationFormSchema

export const inviteMemberSchema = z.object({
  email: emailField,
  role: z.string().min(1, 'validation_required'),
  teamId: z.string(),
  locale: z.enum(locales),
})

export const teamSchema = z.object({ name: teamNameSchema })

export const customRoleSchema = z.object({
  role: roleNameSchema.refine((role) => !(builtInRoles as string[]).includes(role), 'validation_role_name_taken'),
})
