import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { toast } from 'sonner'
import { isPlanLimitError, PlanLimitNotice } from '#/components/plan-limit-notice'
import { Button } from '#/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#/components/ui/dialog'
import { toastError } from '#/lib/error-toast'
import { sendWith, showServerFieldErrors, useAppForm } from '#/lib/form'
import { currentIntlLocale } from '#/lib/i18n'
import { oneFinalStop } from '#/lib/sentence'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { type BookDetails, type BookRow, useBookListCache } from '../book-queries'
import { type BookFormValues, bookFormSchema } from '../schemas'
import { bookLanguages } from '../search'

const formFields = ['title', 'authors', 'isbn', 'publishedYear', 'language', 'tags', 'coverUrl', 'description'] as const

function formValuesOf(book: BookDetails | undefined): BookFormValues {
  return {
    title: book?.title ?? '',
    authors: book?.authors.join(', ') ?? '',
    isbn: book?.isbn ?? '',
    publishedYear: book?.publishedYear?.toString() ?? '',
    language: book?.language ?? '',
    tags: book?.tags.join(', ') ?? '',
    coverUrl: book?.coverUrl ?? '',
    description: book?.description ?? '',
  }
}

/** Language names in the reader's language ("Chinese" / "中文"), sorted by that name. */
export function useLanguageOptions() {
  const names = new Intl.DisplayNames([currentIntlLocale()], { type: 'language' })
  return bookLanguages
    .map((code) => ({ code, name: names.of(code) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name, currentIntlLocale()))
}

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
  const languages = useLanguageOptions()
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
        else if (!showServerFieldErrors(formApi, error, formFields)) toastError(error)
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
          <form.AppField name="title">
            {(field) => <field.TextField label={m.book_field_title()} autoComplete="off" />}
          </form.AppField>
          <form.AppField name="authors">
            {(field) => <field.TextField label={m.book_field_authors()} hint={m.book_field_authors_hint()} />}
          </form.AppField>
          <div className="grid gap-4 sm:grid-cols-3">
            <form.AppField name="isbn">
              {(field) => <field.TextField label={m.book_field_isbn()} hint={m.book_field_isbn_hint()} />}
            </form.AppField>
            <form.AppField name="publishedYear">
              {(field) => <field.TextField label={m.book_field_year()} inputMode="numeric" />}
            </form.AppField>
            <form.AppField name="language">
              {(field) => (
                <field.SelectField label={m.book_field_language()}>
                  <option value="">{m.book_field_no_language()}</option>
                  {languages.map((language) => (
                    <option key={language.code} value={language.code}>
                      {language.name}
                    </option>
                  ))}
                </field.SelectField>
              )}
            </form.AppField>
          </div>
          <form.AppField name="tags">
            {(field) => <field.TextField label={m.book_field_tags()} hint={m.book_field_tags_hint()} />}
          </form.AppField>
          <form.AppField name="coverUrl">
            {(field) => <field.TextField label={m.book_field_cover()} type="url" placeholder="https://" />}
          </form.AppField>
          <form.AppField name="description">
            {(field) => (
              <field.TextAreaField label={m.book_field_description()} hint={m.book_field_description_hint()} rows={5} />
            )}
          </form.AppField>
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
