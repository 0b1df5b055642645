import { ImageUpIcon, Trash2Icon } from 'lucide-react'
import { type ChangeEvent, useId, useRef, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { formatFileSize } from '#/lib/file-size'
import { currentIntlLocale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
import { avatarBytesMax, avatarUploadPixels } from '../avatar-rules'
import { shrinkImage } from '../shrink-image'
import { sendUpload, toastUploadRefusal } from './send-upload'

/**
 * The photo cropped to a square at its centre, no larger than the stored size: a 5 MB phone photo becomes tens of KB
 * before it leaves. What the browser cannot draw is sent as it is, for the server to judge.
 */
async function shrunk(file: File): Promise<Blob> {
  return (await shrinkImage(file, { width: avatarUploadPixels, height: avatarUploadPixels, crop: true })) ?? file
}

interface SquarePictureWords {
  /** What the control is for ("Profile picture"), naming the group of buttons. */
  picture: string
  upload: string
  change: string
  remove: string
  uploaded: string
  removed: string
}

/** The limits the page and the server hold a picture to, as the person reads them before choosing a file. */
const pictureHint = () =>
  m.account_picture_hint({
    pixels: String(avatarUploadPixels),
    // Kept on one line: "1" at a line's end and "MB" at the next one's start reads as two things.
    size: formatFileSize(avatarBytesMax, currentIntlLocale()).replace(' ', '\u00a0'),
  })

/**
 * The one control for a square picture (a person's, an organization's logo): upload one from the device, change it or
 * remove it, with the limits written under it; `onChanged` after.
 */
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
    <fieldset aria-label={words.picture} className="mt-4 grid min-w-0 gap-1.5" data-testid={testId}>
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
          {hasPicture ? words.change : words.upload}
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
        {pictureHint()}
      </p>
    </fieldset>
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
        picture: m.account_picture(),
        upload: m.account_picture_upload(),
        change: m.account_picture_change(),
        remove: m.account_picture_remove(),
        uploaded: m.account_picture_uploaded(),
        removed: m.account_picture_removed(),
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
        picture: m.org_logo(),
        upload: m.org_logo_upload(),
        change: m.org_logo_change(),
        remove: m.org_logo_remove(),
        uploaded: m.org_logo_uploaded(),
        removed: m.org_logo_removed(),
      }}
    />
  )
}
