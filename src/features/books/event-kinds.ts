import { defineEventKinds } from '#/lib/event-kinds'
import { m } from '#/paraglide/messages'

/** What books reports happening in an organization (src/lib/event-kinds.ts): its books created, changed and deleted. */
export const eventKinds = defineEventKinds([
  { type: 'book.created', label: m.event_book_created },
  { type: 'book.updated', label: m.event_book_updated },
  { type: 'book.deleted', label: m.event_book_deleted },
])
