import { fileStorage } from '#/server/files/configured-storage'

/** Links to an organization's images last 15 to 30 minutes and stay the same link for 15, so the browser caches them. */
const windowMs = 15 * 60_000

/** A member's link to an organization's file shown in a page (an app's: a book's cover): temporary, and the same link within its window. */
export function memberImageUrl(key: string): Promise<string> {
  const signedAt = new Date(Math.floor(Date.now() / windowMs) * windowMs)
  return fileStorage().temporaryUrl(key, (2 * windowMs) / 1000, { signedAt })
}

/** How long a download link works: long enough to start it, short enough that a leaked one is soon useless. */
export const downloadLinkSeconds = 5 * 60

/** A member's link that downloads a file under its name. */
export function memberDownloadUrl(key: string, name: string): Promise<string> {
  return fileStorage().temporaryUrl(key, downloadLinkSeconds, { downloadName: name })
}
