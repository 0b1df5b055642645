import { m } from '#/paraglide/messages'

/**
 * What to tell the person when an AI answer failed: the server's refusal (JSON `{ code, message, upgradeUrl? }`,
 * already in their language), a lost connection, or "could not answer" (the stream's own error says just that).
 * Never a raw text from elsewhere (a proxy's error page, the browser's English).
 */
export function aiRefusalOf(error: Error): { message: string; upgradeUrl?: string } {
  try {
    const body = JSON.parse(error.message) as { message?: unknown; upgradeUrl?: unknown }
    if (typeof body.message === 'string') {
      return { message: body.message, upgradeUrl: typeof body.upgradeUrl === 'string' ? body.upgradeUrl : undefined }
    }
  } catch {
    // Not the server's JSON.
  }
  return { message: error instanceof TypeError ? m.error_network() : m.ai_provider_failed() }
}
