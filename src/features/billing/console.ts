import { CreditCardIcon } from 'lucide-react'
import { lazy } from 'react'
import { allows } from '#/lib/access-control'
import { defineConsoleApp } from '#/lib/app-manifest'
import { addFeatureMessages } from '#/lib/errors'
import { m } from '#/paraglide/messages'

// Deleting an organization, or an account that alone belongs to one, is refused while its subscription renews: the
// console's own pages (Organization, Account, Users) say so in words. Billing's other refusals come with its pages.
addFeatureMessages({ ORGANIZATION_HAS_SUBSCRIPTION: () => m.error_code_ORGANIZATION_HAS_SUBSCRIPTION() })

/**
 * Billing in the console: the organization's Billing page, for those who may read its billing, and the payment events
 * that failed to apply on Console → System.
 */
export const consoleApp = defineConsoleApp({
  name: 'billing',
  consoleNav: [
    {
      section: 'organization',
      position: 50,
      to: '/console/organization/billing',
      label: m.console_org_billing,
      icon: CreditCardIcon,
      visible: (session) => allows(session.permissions, { billing: ['read'] }),
    },
  ],
  guardedPages: { billing: { name: m.console_org_billing, grantedBy: 'organization' } },
  systemSections: [lazy(() => import('./components/failing-payments-section'))],
})
