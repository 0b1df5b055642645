// The generated app's components beside the list screen: its columns, its form and its details page.
import type { NewAppSpec } from '../new-app-spec.ts'
import { upper } from './server-files.ts'

export function columnsFile(spec: NewAppSpec): string {
  const s = spec
  const p = s.table
  const name = s.fields[0]?.key ?? ''
  return `import { Link } from '@tanstack/react-router'
import type { RefObject } from 'react'
import { entityColumns, hideableEntityColumns } from '#/components/entity-fields'
import { listColumnHelper } from '#/components/list-table'
import { RowActionsMenu } from '#/components/row-actions-menu'
import { DropdownMenuItem } from '#/components/ui/dropdown-menu'
import { m } from '#/paraglide/messages'
import { ${s.entity}Entity } from '../${s.entityFile}-entity'
import type { ${s.Entity}Row } from '../${s.entityFile}-queries'

const column = listColumnHelper<${s.Entity}Row>()

/** The columns a reader may hide, with their names (the actions always show). */
export const hideable${s.Entity}Columns = [
  ...hideableEntityColumns(${s.entity}Entity),
  ['createdByName', m.${p}_col_created_by],
  ['createdAt', m.${p}_col_created],
  ['updatedAt', m.${p}_col_updated],
] as const

export interface ${s.Entity}RowActions {
  canChange: (row: ${s.Entity}Row, action: 'update' | 'delete') => boolean
  onEdit: (row: ${s.Entity}Row) => void
  onDelete: (row: ${s.Entity}Row) => void
}

/** The list's columns, from the definition, with each row's menu (view, and edit or delete where the reader may). */
export function ${s.entity}Columns(locale: string, latestActions: RefObject<${s.Entity}RowActions | undefined>) {
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' })
  return column.columns([
    ...entityColumns<${s.Entity}Row, typeof ${s.entity}Entity.fields>(${s.entity}Entity, {
      ${name}: ({ row }) => (
        <Link
          to="/console/${s.app}/$${s.entity}Id"
          params={{ ${s.entity}Id: row.original.id }}
          className="font-medium underline-offset-4 hover:underline"
        >
          {row.original.${name}}
        </Link>
      ),
    }),
    column.accessor('createdByName', {
      header: m.${p}_col_created_by,
      enableSorting: false,
      cell: (info) => info.getValue() ?? m.${p}_former_member(),
    }),
    column.accessor('createdAt', {
      header: m.${p}_col_created,
      cell: (info) => <span className="whitespace-nowrap">{date.format(info.getValue())}</span>,
    }),
    column.accessor('updatedAt', {
      header: m.${p}_col_updated,
      cell: (info) => <span className="whitespace-nowrap">{date.format(info.getValue())}</span>,
    }),
    column.display({
      id: 'actions',
      enableSorting: false,
      enableHiding: false,
      header: () => null,
      cell: ({ row }) => {
        const record = row.original
        const actions = latestActions.current
        if (!actions) return null
        return (
          <RowActionsMenu label={m.${p}_actions_for({ name: record.${name} })}>
            <DropdownMenuItem asChild>
              <Link to="/console/${s.app}/$${s.entity}Id" params={{ ${s.entity}Id: record.id }}>
                {m.${p}_view()}
              </Link>
            </DropdownMenuItem>
            {actions.canChange(record, 'update') ? (
              <DropdownMenuItem onSelect={() => actions.onEdit(record)}>{m.${p}_edit()}</DropdownMenuItem>
            ) : null}
            {actions.canChange(record, 'delete') ? (
              <DropdownMenuItem className="text-destructive" onSelect={() => actions.onDelete(record)}>
                {m.${p}_delete()}
              </DropdownMenuItem>
            ) : null}
          </RowActionsMenu>
        )
      },
    }),
  ])
}
`
}

export function formDialogFile(spec: NewAppSpec): string {
  const s = spec
  const p = s.table
  const t = s.router
  const name = s.fields[0]?.key ?? ''
  return `import { useMutation } from '@tanstack/react-query'
import { toast } from 'sonner'
import { EntityFormFields, EntityInput } from '#/components/entity-fields'
import { Button } from '#/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#/components/ui/dialog'
import { formTextsOf } from '#/lib/entity'
import { toastError } from '#/lib/error-toast'
import { sendWith, showServerFieldErrors, useAppForm, withForm } from '#/lib/form'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { ${s.entity}Entity } from '../${s.entityFile}-entity'
import { type ${s.Entity}Details, use${upper(t)}Cache } from '../${s.entityFile}-queries'
import { type ${s.Entity}FormValues, ${s.entity}FormSchema } from '../schemas'

const formValuesOf = (record: ${s.Entity}Details | undefined): ${s.Entity}FormValues => formTextsOf(${s.entity}Entity, record)

/** The form's inputs, one per field of the definition, in its order. */
export const ${s.Entity}FormFields = withForm({
  defaultValues: formValuesOf(undefined),
  render: function ${s.Entity}FormFieldsRender({ form }) {
    return (
      <EntityFormFields
        entity={${s.entity}Entity}
        renderField={(key, definition) => (
          <form.AppField key={key} name={key}>
            {(field) => <EntityInput field={definition} controls={field} />}
          </form.AppField>
        )}
      />
    )
  },
})

/** Creates a ${s.english.oneInSentence}, or edits \`record\`; a refusal shows beside its field (or in a toast). */
export function ${s.Entity}FormDialog({
  record,
  open,
  onOpenChange,
}: {
  record?: ${s.Entity}Details
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const trpc = useTRPC()
  const cache = use${upper(t)}Cache()
  const create = useMutation(trpc.${t}.create.mutationOptions())
  const update = useMutation(trpc.${t}.update.mutationOptions())
  const title = record ? m.${p}_form_edit_title() : m.${p}_form_create_title()

  const form = useAppForm({
    defaultValues: formValuesOf(record),
    validators: { onDynamic: ${s.entity}FormSchema },
    onSubmit: async ({ value, formApi }) => {
      const input = ${s.entity}FormSchema.parse(value)
      try {
        if (record) await update.mutateAsync({ id: record.id, ${s.entity}: input })
        else await create.mutateAsync(input)
      } catch (error) {
        if (!showServerFieldErrors(formApi, error, ${s.entity}Entity.keys)) toastError(error)
        return
      }
      toast.success(record ? m.${p}_saved({ name: input.${name} }) : m.${p}_created({ name: input.${name} }))
      onOpenChange(false)
      formApi.reset(formValuesOf(undefined))
      await cache.refresh()
    },
  })

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription className="sr-only">{title}</DialogDescription>
        <form aria-label={title} noValidate className="grid gap-4" onSubmit={sendWith(form)}>
          <${s.Entity}FormFields form={form} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {m.${p}_form_cancel()}
            </Button>
            <form.AppForm>
              <form.SubmitButton pendingLabel={m.${p}_form_saving()}>{m.${p}_form_save()}</form.SubmitButton>
            </form.AppForm>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}
`
}

export function detailsFile(spec: NewAppSpec): string {
  const s = spec
  const p = s.table
  const t = s.router
  const name = s.fields[0]?.key ?? ''
  return `import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { PencilIcon, Trash2Icon } from 'lucide-react'
import { useState } from 'react'
import { DetailsFields, DetailsHeader, DetailsLayout } from '#/components/details-layout'
import { entityDetailsFields } from '#/components/entity-fields'
import { Button } from '#/components/ui/button'
import { useConsoleSession } from '#/lib/console-session'
import { currentIntlLocale } from '#/lib/i18n'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { ${s.entity}Entity } from '../${s.entityFile}-entity'
import type { ${s.Entity}Details } from '../${s.entityFile}-queries'
import { mayChange${s.Entity} } from '../${s.entityFile}-rules'
import { ${s.Entity}FormDialog } from './${s.entityFile}-form-dialog'
import { useDelete${upper(t)} } from './use-delete-${s.app}'
import '../${s.entityFile}-messages'

/** One ${s.english.oneInSentence}: its fields from the definition, who added it, and its actions. */
export function ${s.Entity}DetailsScreen({ ${s.entity}Id }: { ${s.entity}Id: string }) {
  const trpc = useTRPC()
  const query = useQuery(trpc.${t}.get.queryOptions({ id: ${s.entity}Id }))
  return (
    <DetailsLayout backTo="/console/${s.app}" backLabel={m.${p}_details_back()} query={query}>
      {(record) => <${s.Entity}DetailsView record={record} />}
    </DetailsLayout>
  )
}

function ${s.Entity}DetailsView({ record }: { record: ${s.Entity}Details }) {
  const session = useConsoleSession()
  const navigate = useNavigate()
  const delete${upper(t)} = useDelete${upper(t)}()
  const [editing, setEditing] = useState(false)
  const date = new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium' })
  const granted = session.permissions.${s.entity} ?? []
  const own = record.createdById === session.user.id
  const canUpdate = mayChange${s.Entity}(granted, 'update', own)
  const canDelete = mayChange${s.Entity}(granted, 'delete', own)
  const actions = (
    <>
      {canUpdate ? (
        <Button variant="outline" onClick={() => setEditing(true)}>
          <PencilIcon aria-hidden />
          {m.${p}_edit()}
        </Button>
      ) : null}
      {canDelete ? (
        <Button
          variant="destructive"
          onClick={() => delete${upper(t)}([record], () => navigate({ to: '/console/${s.app}' }))}
        >
          <Trash2Icon aria-hidden />
          {m.${p}_delete()}
        </Button>
      ) : null}
    </>
  )
  return (
    <>
      <DetailsHeader title={record.${name}} actions={canUpdate || canDelete ? actions : undefined}>
        <DetailsFields labels="beside" fields={entityDetailsFields(${s.entity}Entity, record)} />
        <p className="text-xs text-muted-foreground">
          {m.${p}_details_added({
            name: record.createdByName ?? m.${p}_former_member(),
            date: date.format(record.createdAt),
          })}
          {' · '}
          {m.${p}_details_updated({ date: date.format(record.updatedAt) })}
        </p>
      </DetailsHeader>
      {editing ? <${s.Entity}FormDialog record={record} open onOpenChange={setEditing} /> : null}
    </>
  )
}
`
}
