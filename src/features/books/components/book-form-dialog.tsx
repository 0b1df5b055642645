import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { toast } from 'sonner'
import { EntityFormFields, EntityInput } from '#/components/entity-fields'
import { isPlanLimitError, PlanLimitNotice } from '#/components/plan-limit-notice'
import { Button } from '#/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#/components/ui/dialog'
import { formTextsOf } from '#/lib/entity'
import { toastError } from '#/lib/error-toast'
import { sendWith, showServerFieldErrors, useAppForm, withForm } from '#/lib/form'
import { oneFinalStop } from '#/lib/sentence'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { bookEntity } from '../book-entity'
import { type BookDetails, type BookRow, useBookListCache } from '../book-queries'
import { type BookFormValues, bookFormSchema } from '../schemas'

function formValuesOf(book: BookDetails | undefined): BookFormValues {
  return formTextsOf(bookEntity, book)
}

/** The form's inputs, one per field of the book's definition (book-entity.ts), in its order. */
export const BookFormFields = withForm({
  defaultValues: formValuesOf(undefined),
  render: function BookFormFieldsRender({ form }) {
    return (
      <EntityFormFields
        entity={bookEntity}
        renderField={(key, definition) => (
          <form.AppField key={key} name={key}>
            {(field) => <EntityInput field={definition} controls={field} />}
          </form.AppField>
        )}
      />
    )
  },
})

/**
 * Creates a book, or edits `book`. The list shows the change at once; a refusal puts the list back and shows why
 * beside the field (or in a toast).
 */
export function BookFormDialog({
  book,
  open,
  onOpenChange,
  currentUser,
}: {
  book?: BookDetails
  open: boolean
  onOpenChange: (open: boolean) => void
  currentUser: { id: string; name: string }
}) {
  const trpc = useTRPC()
  const cache = useBookListCache()
  const create = useMutation(trpc.books.create.mutationOptions())
  const update = useMutation(trpc.books.update.mutationOptions())
  const title = book ? m.book_form_edit_title() : m.book_form_create_title()
  const [limitError, setLimitError] = useState<unknown>(null)

  const form = useAppForm({
    defaultValues: formValuesOf(book),
    validators: { onDynamic: bookFormSchema },
    onSubmit: async ({ value, formApi }) => {
      const input = bookFormSchema.parse(value)
      setLimitError(null)
      const now = new Date()
      const undo = book
        ? cache.apply((items) =>
            items.map((item) => (item.id === book.id ? { ...item, ...input, updatedAt: now } : item)),
          )
        : cache.apply((items, page) => {
            // A new book shows at the top of the first page when the list is newest first.
            if (page.previousCursor) return items
            const draft: BookRow = {
              ...input,
              id: `pending-${now.getTime()}`,
              createdById: currentUser.id,
              createdByName: currentUser.name,
              createdAt: now,
              updatedAt: now,
              coverImage: null,
            }
            return [draft, ...items]
          })
      try {
        if (book) await update.mutateAsync({ id: book.id, book: input })
        else await create.mutateAsync(input)
      } catch (error) {
        undo()
        if (isPlanLimitError(error)) setLimitError(error)
        else if (!showServerFieldErrors(formApi, error, bookEntity.keys)) toastError(error)
        return
      }
      toast.success(
        oneFinalStop(book ? m.books_saved({ title: input.title }) : m.books_created({ title: input.title })),
      )
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
          <PlanLimitNotice error={limitError} />
          <BookFormFields form={form} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {m.book_form_cancel()}
            </Button>
            <form.AppForm>
              <form.SubmitButton pendingLabel={m.book_form_saving()}>{m.book_form_save()}</form.SubmitButton>
            </form.AppForm>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}
