import { ImageUpIcon, Trash2Icon } from 'lucide-react'
import { type ChangeEvent, useId, useRef, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { m } from '#/paraglide/messages'
import { avatarUploadPixels } from '../avatar-rules'
import { sendUpload, toastUploadRefusal } from './send-upload'

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

interface SquarePictureWords {
  upload: string
  remove: string
  uploaded: string
  removed: string
  hint: string
}

/** A square picture (a person's, an organization's logo) uploaded from the device, or removed; `onChanged` after. */
function SquarePicturePicker({
  endpoint,
  hasPicture,
  words,
  onChanged,
  testId,
}: {
  endpoint: string
  hasPicture: boolean
  words: SquarePictureWords
  onChanged: () => Promise<unknown>
  testId: string
}) {
  const input = useRef<HTMLInputElement>(null)
  const hintId = useId()
  const [busy, setBusy] = useState(false)
  const run = async (work: () => Promise<Awaited<ReturnType<typeof sendUpload>>>, done: string) => {
    setBusy(true)
    try {
      const refusal = await work()
      if (refusal) toastUploadRefusal(refusal)
      else {
        toast.success(done)
        await onChanged()
      }
    } finally {
      setBusy(false)
    }
  }
  const upload = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (file) void run(async () => sendUpload(endpoint, 'POST', await shrunk(file)), words.uploaded)
  }
  return (
    <div className="mt-4 grid gap-1.5" data-testid={testId}>
      <div className="flex flex-wrap gap-2">
        <input
          ref={input}
          type="file"
          accept="image/*"
          className="sr-only"
          tabIndex={-1}
          aria-label={words.upload}
          aria-describedby={hintId}
          onChange={upload}
        />
        <Button type="button" variant="outline" size="sm" disabled={busy} onClick={() => input.current?.click()}>
          <ImageUpIcon aria-hidden />
          {words.upload}
        </Button>
        {hasPicture ? (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            disabled={busy}
            onClick={() => void run(() => sendUpload(endpoint, 'DELETE'), words.removed)}
          >
            <Trash2Icon aria-hidden />
            {words.remove}
          </Button>
        ) : null}
      </div>
      <p id={hintId} className="text-xs text-muted-foreground">
        {words.hint}
      </p>
    </div>
  )
}

/** Account → Profile: the person's picture (shown above it), uploaded from their device as square WebP, or removed. */
export function AvatarPicker({ user }: { user: { image?: string | null } }) {
  const refresh = useAuthRefresh()
  return (
    <SquarePicturePicker
      endpoint="/api/uploads/avatar"
      hasPicture={Boolean(user.image)}
      onChanged={() => refresh.session()}
      testId="avatar-picker"
      words={{
        upload: m.account_picture_upload(),
        remove: m.account_picture_remove(),
        uploaded: m.account_picture_uploaded(),
        removed: m.account_picture_removed(),
        hint: m.account_picture_hint(),
      }}
    />
  )
}

/** Organization settings: the active organization's logo (the switcher and invitations show it). */
export function LogoPicker({ hasLogo }: { hasLogo: boolean }) {
  const refresh = useAuthRefresh()
  return (
    <SquarePicturePicker
      endpoint="/api/uploads/organization-logo"
      hasPicture={hasLogo}
      onChanged={() => refresh.organizations()}
      testId="logo-picker"
      words={{
        upload: m.org_logo_upload(),
        remove: m.org_logo_remove(),
        uploaded: m.org_logo_uploaded(),
        removed: m.org_logo_removed(),
        hint: m.account_picture_hint(),
      }}
    />
  )
}
