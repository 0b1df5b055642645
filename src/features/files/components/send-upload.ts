import { toast } from 'sonner'
import { upgradeActionFor } from '#/lib/error-toast'
import { m } from '#/paraglide/messages'

/** What an upload route answered when it refused: its translated message and code. */
export interface UploadRefusal {
  code: string
  message: string
}

/** Sends a file (or a DELETE) to one of the upload routes; null when it was taken. */
export async function sendUpload(url: string, method: 'POST' | 'DELETE', body?: Blob): Promise<UploadRefusal | null> {
  try {
    const answer = await fetch(url, {
      method,
      body,
      headers: body ? { 'content-type': body.type || 'application/octet-stream' } : undefined,
    })
    if (answer.ok) return null
    const refusal = (await answer.json().catch(() => ({}))) as Partial<UploadRefusal>
    return {
      code: refusal.code ?? 'INTERNAL_SERVER_ERROR',
      message: refusal.message ?? m.error_code_INTERNAL_SERVER_ERROR(),
    }
  } catch {
    return { code: 'NETWORK', message: m.error_network() }
  }
}

/** The refusal as a toast; a plan's limit comes with the way past it (Upgrade). */
export function toastUploadRefusal(refusal: UploadRefusal): void {
  toast.error(refusal.message, upgradeActionFor(refusal.code))
}
