import { locales } from '#/lib/i18n'
import { listPageNumber } from '#/lib/list-schemas'
import { recordId, storableString } from '#/lib/stored-text'
import { z } from '#/lib/zod'
import { webhookEventTypes } from './event-types'
import { deliveryStatuses, webhookLimits } from './events'

/** An http(s) URL with a host and no user name or password; whether it resolves to a public address is the server's check. */
export function isWebhookUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (
      (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' && !url.username && !url.password
    )
  } catch {
    return false
  }
}

const urlField = storableString('validation_webhook_url_invalid')
  .trim()
  .min(1, 'validation_required')
  .max(webhookLimits.urlMax, 'validation_webhook_url_invalid')
  .refine(isWebhookUrl, 'validation_webhook_url_invalid')

const eventsField = z
  .array(z.enum(webhookEventTypes, 'validation_webhook_events_invalid'), 'validation_webhook_events_invalid')
  .min(1, 'validation_webhook_events_required')
  .max(webhookEventTypes.length, 'validation_webhook_events_invalid')
  .transform((events) => [...new Set(events)])

const descriptionField = storableString()
  .trim()
  .max(webhookLimits.descriptionMax, 'validation_webhook_description_too_long')

/** The endpoint form: shared by the dialog and the procedures. */
export const webhookEndpointSchema = z.object({
  url: urlField,
  description: descriptionField,
  events: eventsField,
})

/** Adding an endpoint: the form's fields (a description may be left out by an API caller) and the email language. */
export const createWebhookEndpointInput = webhookEndpointSchema.extend({
  description: descriptionField.default(''),
  locale: z.enum(locales).default('en'),
})
export type WebhookEndpointValues = z.input<typeof webhookEndpointSchema>

export const webhookEndpointIdInput = z.object({ id: recordId() })

export const updateWebhookEndpointInput = z.object({
  id: recordId(),
  endpoint: webhookEndpointSchema.partial().optional(),
  enabled: z.boolean().optional(),
})

export const webhookDeliveriesInput = z.object({
  endpointId: recordId(),
  status: z.enum(deliveryStatuses, 'validation_list_filter_invalid').optional(),
  page: listPageNumber.default(1),
  size: z
    .number('validation_list_page_size_invalid')
    .int('validation_list_page_size_invalid')
    .min(1, 'validation_list_page_size_invalid')
    .max(100, 'validation_list_page_size_invalid')
    .default(25),
})

export const webhookDeliveryIdInput = z.object({ id: recordId() })
