/**
 * The optional apps this installation carries (docs/decisions/042), each one folder, `src/features/<name>/`, holding
 * everything that is only its own: its routes, screens, server code and what it adds to shared places, declared in
 * its `app.ts` and `server/app.ts`. Shared code reads this list, through the files generated from it
 * (`src/apps.gen.ts`, `src/server/apps.gen.ts`, by scripts/generate-apps.ts), and never names an app.
 */
export const installedApps = [
  'analytics',
  'assistant',
  'billing',
  'blog',
  'books',
  'files',
  'lemonsqueezy',
  'newsletter',
  'notifications',
  'paddle',
  'polar',
  'sso',
  'stripe',
  'webhooks',
] as const

export type InstalledApp = (typeof installedApps)[number]
