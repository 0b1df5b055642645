import { toast } from 'sonner'
import { upgradeActionFor } from '#/lib/error-toast'
import { m } from '#/paraglide/messages'

/** What an upload route answered when it refused: its translated message and code. */
export interface UploadRefusal {
  code: string
  message: string
}

/** Said when the person cancelled the upload: no error to show. */
export const uploadCancelled = 'CANCELLED'

export interface UploadOptions {
  /** How much of the body has left, from 0 to 1. */
  onProgress?: (sent: number) => void
  signal?: AbortSignal
}

/**
 * Sends a file (or a DELETE) to one of the upload routes; null when it was taken. Through XMLHttpRequest because
 * fetch cannot tell how much of a body has been sent, and a large file would sit without a sign of life.
 */
export function sendUpload(
  url: string,
  method: 'POST' | 'DELETE',
  body?: Blob,
  options: UploadOptions = {},
): Promise<UploadRefusal | null> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest()
    const { onProgress, signal } = options
    if (signal?.aborted) return resolve({ code: uploadCancelled, message: '' })
    request.open(method, url)
    if (body) request.setRequestHeader('content-type', body.type || 'application/octet-stream')
    if (onProgress) {
      request.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total)
      }
    }
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) return resolve(null)
      let refusal: Partial<UploadRefusal> = {}
      try {
        refusal = JSON.parse(request.responseText) as Partial<UploadRefusal>
      } catch {}
      resolve({
        code: refusal.code ?? 'INTERNAL_SERVER_ERROR',
        message: refusal.message ?? m.error_code_INTERNAL_SERVER_ERROR(),
      })
    }
    request.onerror = () => resolve({ code: 'NETWORK', message: m.error_network() })
    request.onabort = () => resolve({ code: uploadCancelled, message: '' })
    signal?.addEventListener('abort', () => request.abort(), { once: true })
    request.send(body ?? null)
  })
}

/** The refusal as a toast; a plan's limit comes with the way past it (Upgrade). */
export function toastUploadRefusal(refusal: UploadRefusal): void {
  toast.error(refusal.message, upgradeActionFor(refusal.code))
}
