import { m } from '#/paraglide/messages'

const statements = {
  /** Outgoing webhooks: endpoints, their secrets and the delivery log. */
  webhook: ['read', 'manage'],
} as const

type WebhookAction = (typeof statements.webhook)[number][]

/** The webhooks' resource among the organization permissions (src/lib/access-control.ts), who has it, and its words. */
export const permissions = {
  statements,
  roles: {
    owner: { webhook: ['read', 'manage'] as WebhookAction },
    admin: {},
    member: { webhook: [] as WebhookAction },
  },
  labels: { webhook: m.perm_resource_webhook },
}
