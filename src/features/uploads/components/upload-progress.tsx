import { XIcon } from 'lucide-react'
import { Button } from '#/components/ui/button'
import { cn } from '#/lib/utils'
import { m } from '#/paraglide/messages'
import type { UploadInProgress } from './use-upload'

/** A file being sent: its name, a bar with the share sent (moving while the file is prepared), and Cancel. */
export function UploadProgress({ progress, onCancel }: { progress: UploadInProgress; onCancel: () => void }) {
  const percent = progress.sent === null ? null : Math.floor(progress.sent * 100)
  const label =
    percent === null ? m.book_files_preparing({ name: progress.name }) : m.book_files_sending({ name: progress.name })
  return (
    <div className="grid w-full gap-1" data-testid="upload-progress">
      <div className="flex min-w-0 items-center gap-2 text-xs text-muted-foreground">
        <span className="min-w-0 flex-1 truncate">{label}</span>
        {percent === null ? null : <span className="tabular-nums">{percent}%</span>}
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="size-6"
          aria-label={m.book_files_cancel()}
          onClick={onCancel}
        >
          <XIcon aria-hidden />
        </Button>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        className="h-1.5 w-full overflow-hidden rounded-full bg-secondary"
      >
        <div
          className={cn('h-full rounded-full bg-primary transition-[width]', percent === null && 'w-1/3 animate-pulse')}
          style={percent === null ? undefined : { width: `${percent}%` }}
        />
      </div>
    </div>
  )
}
