import { defineNoticeKinds } from '#/lib/notice-kinds'
import { m } from '#/paraglide/messages'

/** What the webhooks tell people (src/lib/notice-kinds.ts): an endpoint switched off after a day of failures. */
export const noticeKinds = defineNoticeKinds([
  {
    type: 'webhook_disabled',
    text: (p, o) => m.notification_webhook_disabled({ url: p.url ?? '' }, o),
    label: m.notifications_type_webhook_disabled,
    emailByDefault: true,
    // The switch-off sends its own email to the organization's owners and admins.
    ownEmail: true,
  },
])
