import { ImageUpIcon, Trash2Icon } from 'lucide-react'
import { type ChangeEvent, useId, useRef, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { m } from '#/paraglide/messages'
import { avatarUploadPixels } from '../avatar-rules'

/**
 * The photo drawn into a square (cropped to its centre) no larger than the stored size, as WebP: a 5 MB phone photo
 * becomes tens of KB before it leaves. What the browser cannot draw is sent as it is, for the server to judge.
 */
async function shrunk(file: File): Promise<Blob> {
  let bitmap: ImageBitmap
  try {
    bitmap = await createImageBitmap(file)
  } catch {
    return file
  }
  const side = Math.min(bitmap.width, bitmap.height)
  const size = Math.min(side, avatarUploadPixels)
  const canvas = document.createElement('canvas')
  canvas.width = size
  canvas.height = size
  const context = canvas.getContext('2d')
  if (!context) return file
  context.drawImage(bitmap, (bitmap.width - side) / 2, (bitmap.height - side) / 2, side, side, 0, 0, size, size)
  bitmap.close()
  return new Promise((resolve) => canvas.toBlob((blob) => resolve(blob ?? file), 'image/webp', 0.9))
}

async function send(method: 'POST' | 'DELETE', body?: Blob): Promise<string | null> {
  const answer = await fetch('/api/uploads/avatar', {
    method,
    body,
    headers: body ? { 'content-type': body.type || 'application/octet-stream' } : undefined,
  })
  if (answer.ok) return null
  const refusal = (await answer.json().catch(() => ({}))) as { message?: string }
  return refusal.message ?? m.error_code_INTERNAL_SERVER_ERROR()
}

/** Account → Profile: the person's picture (shown above it), uploaded from their device as square WebP, or removed. */
export function AvatarPicker({ user }: { user: { image?: string | null } }) {
  const refresh = useAuthRefresh()
  const input = useRef<HTMLInputElement>(null)
  const hintId = useId()
  const [busy, setBusy] = useState(false)
  const run = async (work: () => Promise<string | null>, done: string) => {
    setBusy(true)
    try {
      const failure = await work()
      if (failure) toast.error(failure)
      else {
        toast.success(done)
        await refresh.session()
      }
    } catch {
      toast.error(m.error_network())
    } finally {
      setBusy(false)
    }
  }
  const upload = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (file) void run(async () => send('POST', await shrunk(file)), m.account_picture_uploaded())
  }
  return (
    <div className="mt-4" data-testid="avatar-picker">
      <div className="grid gap-1.5">
        <div className="flex flex-wrap gap-2">
          <input
            ref={input}
            type="file"
            accept="image/*"
            className="sr-only"
            tabIndex={-1}
            aria-label={m.account_picture_upload()}
            aria-describedby={hintId}
            onChange={upload}
          />
          <Button type="button" variant="outline" size="sm" disabled={busy} onClick={() => input.current?.click()}>
            <ImageUpIcon aria-hidden />
            {m.account_picture_upload()}
          </Button>
          {user.image ? (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              disabled={busy}
              onClick={() => void run(() => send('DELETE'), m.account_picture_removed())}
            >
              <Trash2Icon aria-hidden />
              {m.account_picture_remove()}
            </Button>
          ) : null}
        </div>
        <p id={hintId} className="text-xs text-muted-foreground">
          {m.account_picture_hint()}
        </p>
      </div>
    </div>
  )
}
