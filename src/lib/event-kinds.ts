import { m } from '#/paraglide/messages'

/**
 * Something that happens in an organization and is passed on to other systems (src/server/organization-events.ts
 * `recordEvent`, `publishEvent`): declared by whoever reports it, the core here and each app in its `event-kinds.ts`,
 * so that an app's kinds leave with it. Whoever passes events on (the webhooks app) reads them all through
 * `allEventKinds` in src/event-kinds.gen.ts.
 */
export interface EventKind {
  /** The event's `type`, as receivers see it: `<thing>.<what happened>`. */
  type: string
  /** What it means, in the page's language. */
  label: () => string
}

export function defineEventKinds(kinds: readonly EventKind[]): readonly EventKind[] {
  return kinds
}

/** What the core reports: members joining and leaving. */
export const coreEventKinds = defineEventKinds([
  { type: 'member.added', label: m.event_member_added },
  { type: 'member.removed', label: m.event_member_removed },
])
