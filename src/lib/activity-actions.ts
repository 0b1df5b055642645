/** The kinds an organization's activity log files its entries under (its filter). */
export const activityKinds = ['organization', 'members', 'invitations', 'teams', 'roles'] as const
export type ActivityKind = (typeof activityKinds)[number]

/** One action an app records in an organization's activity log: where it is filed, and its sentence. */
export interface AppActivityAction {
  kind: ActivityKind
  /** What happened, in the reader's language: `actor` did it, `details` are what was recorded with it. */
  sentence: (actor: string, details: Readonly<Record<string, string>>) => string
}

/**
 * The actions an app records in organizations' activity logs (docs/decisions/042), declared in the app's
 * `src/features/<app>/activity.ts` and gathered through `src/activity-actions.gen.ts`, after the core's: a removed app's
 * entries stay in the log and read as "{actor} did something".
 */
export function defineActivityActions<const Actions extends Readonly<Record<string, AppActivityAction>>>(
  actions: Actions,
): Actions {
  return actions
}
