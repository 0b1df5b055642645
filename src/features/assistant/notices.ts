import { defineNoticeKinds } from '#/lib/notice-kinds'
import { m } from '#/paraglide/messages'

/** What the assistant tells people (src/lib/notice-kinds.ts): a book it added for them. */
export const noticeKinds = defineNoticeKinds([
  {
    type: 'assistant_book_created',
    text: (p, o) => m.notification_assistant_book_created({ title: p.title ?? '' }, o),
    label: m.notifications_type_assistant_book_created,
  },
])
