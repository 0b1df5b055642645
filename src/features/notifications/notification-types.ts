/**
 * What a person is told about, each with the values its text names. The text is `notification_{type}` in
 * messages/, translated when shown (the bell) or sent (the email, in the person's language).
 */
export const notificationTypes = [
  'invited',
  'role_changed',
  'removed',
  'payment_failed',
  'subscription_ending',
  'import_finished',
  'import_failed',
  'assistant_book_created',
  'webhook_disabled',
] as const
export type NotificationType = (typeof notificationTypes)[number]

export function isNotificationType(type: string): type is NotificationType {
  return (notificationTypes as readonly string[]).includes(type)
}

/** What a new account gets by email as well as in the bell: what needs the person even when they are away. */
export const defaultEmailTypes: readonly NotificationType[] = [
  'invited',
  'removed',
  'payment_failed',
  'subscription_ending',
  'webhook_disabled',
]

/** The types that already send their own email (the invitation itself): a second one would say the same twice. */
export const typesWithOwnEmail: readonly NotificationType[] = ['invited', 'webhook_disabled']
