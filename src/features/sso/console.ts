import { KeyRoundIcon } from 'lucide-react'
import { allows } from '#/lib/access-control'
import { defineConsoleApp } from '#/lib/app-manifest'
import { m } from '#/paraglide/messages'

/** Enterprise single sign-on: Console → Organization → Single sign-on, for those who may manage the organization. */
export const consoleApp = defineConsoleApp({
  name: 'sso',
  consoleNav: [
    {
      section: 'organization',
      position: 80,
      to: '/console/organization/sso',
      label: m.console_org_sso,
      icon: KeyRoundIcon,
      visible: (session) => allows(session.permissions, { organization: ['update', 'delete'] }),
    },
  ],
  guardedPages: { sso: { name: m.console_org_sso, grantedBy: 'organization' } },
})
