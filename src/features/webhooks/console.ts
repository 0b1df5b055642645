import { WebhookIcon } from 'lucide-react'
import { allows } from '#/lib/access-control'
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
      visible: (session) => allows(session.permissions, { webhook: ['read'] }),
    },
  ],
  guardedPages: { webhooks: { name: m.console_org_webhooks, grantedBy: 'organization' } },
})
