import { useRef, useState } from 'react'
import { toast } from 'sonner'
import { m } from '#/paraglide/messages'
import { sendUpload, toastUploadRefusal, type UploadRefusal, uploadCancelled } from './send-upload'

/** The file on its way: its name, and how much has been sent (0 to 1), or null while it is being prepared. */
export interface UploadInProgress {
  name: string
  sent: number | null
}

interface UploadWork {
  name: string
  url: string
  /** The body to send (a shrunk photo, the file itself), or why it is refused before anything is sent. */
  prepare: () => Promise<Blob | UploadRefusal>
  /** After the server took it: say so, and refresh what shows it. */
  onSent: () => Promise<unknown>
}

/** One upload at a time from a file picker, with its progress, and a way to cancel it; refusals become toasts. */
export function useUpload() {
  const [progress, setProgress] = useState<UploadInProgress | null>(null)
  const controller = useRef<AbortController | null>(null)
  const start = async ({ name, url, prepare, onSent }: UploadWork) => {
    const abort = new AbortController()
    controller.current = abort
    setProgress({ name, sent: null })
    try {
      const body = await prepare()
      let refusal: UploadRefusal | null
      if (abort.signal.aborted) refusal = { code: uploadCancelled, message: '' }
      else if (body instanceof Blob) {
        setProgress({ name, sent: 0 })
        const onProgress = (sent: number) => setProgress({ name, sent })
        refusal = await sendUpload(url, 'POST', body, { signal: abort.signal, onProgress })
      } else refusal = body
      if (refusal?.code === uploadCancelled) toast(m.book_files_cancelled({ name }))
      else if (refusal) toastUploadRefusal(refusal)
      else await onSent()
    } finally {
      controller.current = null
      setProgress(null)
    }
  }
  return { progress, start, cancel: () => controller.current?.abort() }
}
