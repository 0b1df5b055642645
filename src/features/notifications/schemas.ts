import { locales } from '#/lib/i18n'
import { recordId } from '#/lib/stored-text'
import { z } from '#/lib/zod'
import { notificationTypes } from './notification-types'

export const markNotificationsReadInput = z.object({
  ids: z.array(recordId(), 'validation_list_filter_invalid').min(1).max(100),
})

/** Account → Notifications: the types that also come by email, and the language to write them in. */
export const notificationSettingsInput = z.object({
  emailTypes: z
    .array(
      z.enum(notificationTypes as [string, ...string[]], 'validation_list_filter_invalid'),
      'validation_list_filter_invalid',
    )
    .max(notificationTypes.length)
    .transform((types) => [...new Set(types)]),
  locale: z.enum(locales).default('en'),
})
