import { m } from '#/paraglide/messages'

/**
 * What to tell the person when an AI answer failed: the server's refusal (JSON `{ code, message, upgradeUrl? }`,
 * already in their language), the stream's own error text, or a plain "could not answer" for anything else.
 */
export function aiRefusalOf(error: Error): { message: string; upgradeUrl?: string } {
  try {
    const body = JSON.parse(error.message) as { message?: unknown; upgradeUrl?: unknown }
    if (typeof body.message === 'string') {
      return { message: body.message, upgradeUrl: typeof body.upgradeUrl === 'string' ? body.upgradeUrl : undefined }
    }
  } catch {
    // Not the server's JSON: the stream's own error text, or the browser's.
  }
  return { message: error.message.length > 0 && error.message.length < 300 ? error.message : m.ai_provider_failed() }
}
