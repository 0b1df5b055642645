import { defineNoticeKinds } from '#/lib/notice-kinds'
import { m } from '#/paraglide/messages'

/**
 * What books tells people (src/lib/notice-kinds.ts): how a CSV import that ran in the background ended, and a book the
 * assistant added for them (its book tools are books').
 */
export const noticeKinds = defineNoticeKinds([
  {
    type: 'import_finished',
    text: (p, o) => m.notification_import_finished({ count: p.count ?? '0' }, o),
    label: m.notifications_type_import_finished,
  },
  {
    type: 'import_failed',
    text: (p, o) => m.notification_import_failed({ count: p.count ?? '0' }, o),
    label: m.notifications_type_import_failed,
  },
  {
    type: 'assistant_book_created',
    text: (p, o) => m.notification_assistant_book_created({ title: p.title ?? '' }, o),
    label: m.notifications_type_assistant_book_created,
  },
])
