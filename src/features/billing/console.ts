import { CreditCardIcon } from 'lucide-react'
import { allows } from '#/lib/access-control'
import { defineConsoleApp } from '#/lib/app-manifest'
import { m } from '#/paraglide/messages'
import { FailingPaymentsSection } from './components/failing-payments-section'
import './billing-messages'

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
  systemSections: [FailingPaymentsSection],
})
