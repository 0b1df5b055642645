import { useMutation } from '@tanstack/react-query'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#/components/ui/dialog'
import { toastError } from '#/lib/error-toast'
import { sendWith, showServerFieldErrors, useAppForm } from '#/lib/form'
import { useTRPC } from '#/lib/trpc'
import { z } from '#/lib/zod'
import { m } from '#/paraglide/messages'
import { useBookListCache } from '../book-queries'
import { tagBooksInput } from '../schemas'

const tagsFormSchema = z.object({
  tags: z
    .string()
    .transform((text): unknown => text)
    .pipe(tagBooksInput.shape.tags),
})

/** Adds the same tags to the selected books. */
export function TagBooksDialog({ ids, onClose }: { ids: string[]; onClose: (done: boolean) => void }) {
  const trpc = useTRPC()
  const cache = useBookListCache()
  const addTags = useMutation(trpc.books.addTags.mutationOptions())
  const title = m.books_tag_dialog_title({ count: String(ids.length) })
  const form = useAppForm({
    defaultValues: { tags: '' },
    validators: { onDynamic: tagsFormSchema },
    onSubmit: async ({ value, formApi }) => {
      const { tags } = tagsFormSchema.parse(value)
      const undo = cache.apply((items) =>
        items.map((item) =>
          ids.includes(item.id)
            ? {
                ...item,
                tags: [
                  ...item.tags,
                  ...tags.filter((tag) => !item.tags.some((t) => t.toLowerCase() === tag.toLowerCase())),
                ],
              }
            : item,
        ),
      )
      try {
        await addTags.mutateAsync({ ids, tags })
      } catch (error) {
        undo()
        if (!showServerFieldErrors(formApi, error, ['tags'])) toastError(error)
        return
      }
      toast.success(m.books_tagged())
      onClose(true)
      await cache.refresh()
    },
  })
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose(false))}>
      <DialogContent>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription className="sr-only">{title}</DialogDescription>
        <form aria-label={title} noValidate className="grid gap-4" onSubmit={sendWith(form)}>
          <form.AppField name="tags">
            {(field) => <field.TextField label={m.books_tag_dialog_field()} hint={m.book_field_tags_hint()} />}
          </form.AppField>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={() => onClose(false)}>
              {m.book_form_cancel()}
            </Button>
            <form.AppForm>
              <form.SubmitButton pendingLabel={m.books_tag_dialog_pending()}>
                {m.books_tag_dialog_submit()}
              </form.SubmitButton>
            </form.AppForm>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}
