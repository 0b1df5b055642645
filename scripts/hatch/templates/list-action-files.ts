// The generated app's list actions: deleting with undo, and the CSV import's dialog.
import type { NewAppSpec } from '../new-app-spec.ts'
import { upper } from './server-files.ts'

export function deleteHookFile(spec: NewAppSpec): string {
  const s = spec
  const p = s.table
  const t = s.router
  const name = s.fields[0]?.key ?? ''
  return `import { useMutation } from '@tanstack/react-query'
import { toast } from 'sonner'
import { toastError } from '#/lib/error-toast'
import { useTRPC, useTRPCClient } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { type ${s.Entity}Row, use${upper(t)}Cache } from '../${s.entityFile}-queries'

/** Deletes at once from the list, with "Undo" in the toast; a refusal puts the rows back. */
export function useDelete${upper(t)}() {
  const trpc = useTRPC()
  const cache = use${upper(t)}Cache()
  const remove = useMutation(trpc.${t}.delete.mutationOptions())
  const client = useTRPCClient()

  /** \`onDeleted\` may leave the page first (the record's own page goes back to the list): its cache is dropped after. */
  return (rows: Pick<${s.Entity}Row, 'id' | '${name}'>[], onDeleted?: () => Promise<unknown>) => {
    const ids = rows.map((row) => row.id)
    const undo = cache.apply((items) => items.filter((item) => !ids.includes(item.id)))
    remove.mutate(
      { ids },
      {
        onError: (error) => {
          undo()
          toastError(error)
        },
        onSuccess: async () => {
          await onDeleted?.()
          cache.forget(ids)
          void cache.refresh()
          toast.success(m.${p}_deleted({ name: rows.map((row) => row.${name}).join(', ') }), {
            action: {
              label: m.${p}_undo(),
              // Called on the client itself: the record's own page has unmounted by the time Undo is pressed.
              onClick: () =>
                client.${t}.restore.mutate({ ids }).then(
                  () => {
                    toast.success(m.${p}_restored())
                    void cache.refresh()
                  },
                  (error: unknown) => toastError(error),
                ),
            },
          })
        },
      },
    )
  }
}
`
}

export function importDialogFile(spec: NewAppSpec): string {
  const s = spec
  const p = s.table
  const t = s.router
  return `import { useMutation } from '@tanstack/react-query'
import { type ChangeEvent, useId, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#/components/ui/dialog'
import { Input } from '#/components/ui/input'
import { describeError, translateMessage } from '#/lib/errors'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { ${t}Limits } from '../${s.entityFile}-rules'
import { use${upper(t)}Cache } from '../${s.entityFile}-queries'

interface CheckedFile {
  csv: string
  rowCount: number
  issueCount: number
  issues: { line: number; column: string | null; message: string }[]
}

/** Import in two steps: the server checks the whole file first, and only a file without problems is written, all of it. */
export function Import${upper(t)}Dialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC()
  const cache = use${upper(t)}Cache()
  const importFile = useMutation(trpc.${t}.import.mutationOptions())
  const [checked, setChecked] = useState<CheckedFile | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const fileId = useId()
  const close = (next: boolean) => {
    if (!next) {
      setChecked(null)
      setFailure(null)
    }
    onOpenChange(next)
  }
  const check = async (event: ChangeEvent<HTMLInputElement>) => {
    setChecked(null)
    setFailure(null)
    const file = event.target.files?.[0]
    if (!file) return
    if (file.size > ${t}Limits.importBytesMax) {
      setFailure(translateMessage('validation_${p}_import_too_large'))
      return
    }
    try {
      const csv = await file.text()
      setChecked({ csv, ...(await importFile.mutateAsync({ csv, dryRun: true })) })
    } catch (error) {
      setFailure(describeError(error))
    }
  }
  const commit = async () => {
    if (!checked) return
    try {
      const report = await importFile.mutateAsync({ csv: checked.csv, dryRun: false })
      toast.success(m.${p}_imported({ count: String(report.imported) }))
      close(false)
      await cache.refresh()
    } catch (error) {
      setFailure(describeError(error))
    }
  }
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-w-2xl">
        <DialogTitle>{m.${p}_import_title()}</DialogTitle>
        <DialogDescription>{m.${p}_import_description()}</DialogDescription>
        <div className="grid gap-1.5">
          <label htmlFor={fileId} className="text-sm font-medium">
            {m.${p}_import_file()}
          </label>
          <Input id={fileId} type="file" accept=".csv,text/csv" onChange={check} disabled={importFile.isPending} />
        </div>
        {failure ? (
          <p className="text-sm text-destructive" role="alert">
            {failure}
          </p>
        ) : null}
        {checked ? <ImportReport checked={checked} /> : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="outline" onClick={() => close(false)}>
            {m.${p}_form_cancel()}
          </Button>
          <Button onClick={commit} disabled={!checked || checked.issueCount > 0 || importFile.isPending}>
            {m.${p}_import_submit()}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  )
}

/** How many rows are ready, or every problem by line and column in the reader's language. */
function ImportReport({ checked }: { checked: CheckedFile }) {
  if (checked.issueCount === 0) {
    return <p role="status">{m.${p}_import_ready({ rows: String(checked.rowCount) })}</p>
  }
  return (
    <div role="alert" className="grid gap-2 text-sm">
      <p className="text-destructive">{m.${p}_import_problems({ problems: String(checked.issueCount) })}</p>
      <ul className="max-h-60 list-disc overflow-auto pl-5">
        {checked.issues.map((issue) => (
          <li key={\`\${issue.line}-\${issue.column}-\${issue.message}\`}>
            {m.${p}_import_problem({
              line: String(issue.line),
              column: issue.column ?? '',
              message: translateMessage(issue.message),
            })}
          </li>
        ))}
      </ul>
    </div>
  )
}
`
}
