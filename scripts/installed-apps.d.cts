/** The apps src/apps.ts lists (or this text of it). */
export function installedAppNames(root: string, source?: string): string[]
/** The apps this app's manifest says it needs (imports). */
export function appNeeds(root: string, app: string): string[]
