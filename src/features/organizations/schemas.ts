import { builtInRoles } from '#/lib/access-control'
import { emailField } from '#/lib/account-rules'
import { locales } from '#/lib/i18n'
import { listPageNumber } from '#/lib/list-schemas'
import { recordId, storableString } from '#/lib/stored-text'
import { z } from '#/lib/zod'
import { organizationFormSchema, roleNameSchema, teamNameSchema } from './organization-rules'
import { activityKinds, invitationIdMax, memberSortColumns } from './search'

// The console lists' inputs. Messages are translation keys; a cursor is opaque, so a damaged one reads as one.
const listDirection = z.enum(['asc', 'desc'], 'validation_list_sort_invalid')
const listCursor = z.string().max(1000, 'error_code_INVALID_CURSOR')
const listPageSize = z
  .number('validation_list_page_size_invalid')
  .int('validation_list_page_size_invalid')
  .min(1, 'validation_list_page_size_invalid')
  .max(100, 'validation_list_page_size_invalid')
const listSearchText = storableString().trim().max(200, 'validation_list_search_too_long')

/** Search over name and email, one role, and the order; by default in the order people joined. */
export const memberFilters = z.object({
  q: listSearchText.optional(),
  role: roleNameSchema.optional(),
  sort: z.enum(memberSortColumns, 'validation_list_sort_invalid').default('createdAt'),
  direction: listDirection.default('asc'),
})
export type MemberFilters = z.output<typeof memberFilters>

export const memberListInput = memberFilters.extend({
  after: listCursor.optional(),
  before: listCursor.optional(),
  page: listPageNumber.optional(),
  limit: listPageSize.default(25),
})

/** The log, newest (`desc`) or oldest first, one kind of entry or all of them. */
export const activityListInput = z.object({
  kind: z.enum(activityKinds, 'validation_list_filter_invalid').optional(),
  direction: listDirection.default('desc'),
  after: listCursor.optional(),
  before: listCursor.optional(),
  page: listPageNumber.optional(),
  limit: listPageSize.default(20),
})
export type ActivityListInput = z.output<typeof activityListInput>

export const transferOwnershipInput = z.object({ memberId: recordId() })

export const invitationPreviewInput = z.object({ id: storableString().min(1).max(invitationIdMax) })

export const createOrganizationSchema = organizationFormSchema

export const inviteMemberSchema = z.object({
  email: emailField,
  role: z.string().min(1, 'validation_required'),
  teamId: z.string(),
  locale: z.enum(locales),
})

export const teamSchema = z.object({ name: teamNameSchema })

/** A member keeps at least one role; Better Auth checks the names themselves. */
export const memberRolesSchema = z.object({ role: z.array(z.string()).min(1, 'members_role_required') })

export const teamMemberSchema = z.object({ userId: z.string().min(1, 'validation_required') })

export const customRoleSchema = z.object({
  role: roleNameSchema.refine((role) => !(builtInRoles as string[]).includes(role), 'validation_role_name_taken'),
  /** The ticked `resource:action` pairs; the server checks each names a real one. */
  permission: z.array(z.string()),
})
