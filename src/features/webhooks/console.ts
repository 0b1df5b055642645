import { WebhookIcon } from 'lucide-react'
import { defineConsoleApp } from '#/lib/app-manifest'
import { m } from '#/paraglide/messages'

/** Outgoing webhooks: an organization's endpoints, signed deliveries of its events, and their log. */
export const consoleApp = defineConsoleApp({
  name: 'webhooks',
  consoleNav: [
    {
      section: 'organization',
      position: 70,
      to: '/console/organization/webhooks',
      label: m.console_org_webhooks,
      icon: WebhookIcon,
      requires: { webhook: ['read'] },
    },
  ],
  guardedPages: { webhooks: { name: m.console_org_webhooks, grantedBy: 'organization' } },
})
