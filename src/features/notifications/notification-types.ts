import type { NoticeKind } from '#/lib/notice-kinds'
import { allNoticeKinds } from '#/notice-kinds.gen'

/**
 * What a person is told about: the core's kinds and the installed apps' (src/lib/notice-kinds.ts), each with its text
 * and its name, translated when shown (the bell) or sent (the email, in the person's language).
 */
export const notificationTypes: readonly string[] = allNoticeKinds.map((kind) => kind.type)

export function noticeKindOf(type: string): NoticeKind | undefined {
  return allNoticeKinds.find((kind) => kind.type === type)
}

export function isNotificationType(type: string): boolean {
  return noticeKindOf(type) !== undefined
}

/** What a new account gets by email as well as in the bell: what needs the person even when they are away. */
export const defaultEmailTypes: readonly string[] = allNoticeKinds
  .filter((kind) => kind.emailByDefault)
  .map((kind) => kind.type)

/** The types that already send their own email (the invitation itself): a second one would say the same twice. */
export const typesWithOwnEmail: readonly string[] = allNoticeKinds
  .filter((kind) => kind.ownEmail)
  .map((kind) => kind.type)
