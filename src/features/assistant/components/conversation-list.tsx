import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { EllipsisIcon, MessageSquarePlusIcon, PencilIcon, Trash2Icon } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from '#/components/ui/alert-dialog'
import { Button } from '#/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#/components/ui/dialog'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '#/components/ui/dropdown-menu'
import { describeError } from '#/lib/errors'
import { sendWith, showServerFieldErrors, useAppForm } from '#/lib/form'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { assistantLimits, renameConversationInput } from '../schemas'

interface Conversation {
  id: string
  title: string
}

const titleSchema = renameConversationInput.pick({ title: true })

function RenameDialog({ conversation, onClose }: { conversation: Conversation; onClose: () => void }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const rename = useMutation(trpc.assistant.rename.mutationOptions())
  const form = useAppForm({
    defaultValues: { title: conversation.title },
    validators: { onDynamic: titleSchema },
    onSubmit: async ({ value, formApi }) => {
      try {
        await rename.mutateAsync({ id: conversation.id, title: titleSchema.parse(value).title })
      } catch (error) {
        if (!showServerFieldErrors(formApi, error, ['title'])) toast.error(describeError(error))
        return
      }
      toast.success(m.assistant_renamed())
      await queryClient.invalidateQueries({ queryKey: trpc.assistant.pathKey() })
      onClose()
    },
  })
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogTitle>{m.assistant_rename_title()}</DialogTitle>
        <DialogDescription className="sr-only">{conversation.title}</DialogDescription>
        <form noValidate method="post" className="grid gap-4" onSubmit={sendWith(form)}>
          <form.AppField name="title">
            {(field) => <field.TextField label={m.assistant_title_label()} maxLength={assistantLimits.titleMax} />}
          </form.AppField>
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={onClose}>
              {m.cancel()}
            </Button>
            <form.Subscribe selector={(state) => state.isSubmitting}>
              {(submitting) => (
                <Button type="submit" disabled={submitting}>
                  {m.assistant_save()}
                </Button>
              )}
            </form.Subscribe>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}

function DeleteDialog({
  conversation,
  onClose,
  onDeleted,
}: {
  conversation: Conversation
  onClose: () => void
  onDeleted: () => void
}) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const remove = useMutation(trpc.assistant.delete.mutationOptions())
  return (
    <AlertDialog open onOpenChange={(open) => !open && onClose()}>
      <AlertDialogContent>
        <AlertDialogTitle>{m.assistant_delete_title()}</AlertDialogTitle>
        <AlertDialogDescription>{m.assistant_delete_body({ title: conversation.title })}</AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>{m.cancel()}</AlertDialogCancel>
          <Button
            variant="destructive"
            disabled={remove.isPending}
            onClick={async () => {
              try {
                await remove.mutateAsync({ id: conversation.id })
              } catch (error) {
                toast.error(describeError(error))
                return
              }
              toast.success(m.assistant_deleted())
              onDeleted()
              onClose()
              await queryClient.invalidateQueries({ queryKey: trpc.assistant.conversations.queryKey() })
            }}
          >
            {m.assistant_delete()}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}

/** The person's conversations in this organization, newest first, each with rename and delete. */
export function ConversationList({
  activeId,
  onNew,
  onNavigate,
  onDeleted,
}: {
  activeId: string | undefined
  onNew: () => void
  /** After a conversation is picked (a phone closes the list). */
  onNavigate?: () => void
  onDeleted: (id: string) => void
}) {
  const trpc = useTRPC()
  const conversations = useQuery(trpc.assistant.conversations.queryOptions())
  const [renaming, setRenaming] = useState<Conversation>()
  const [deleting, setDeleting] = useState<Conversation>()
  return (
    <nav aria-label={m.assistant_conversations()} className="grid min-w-0 content-start gap-2">
      <Button type="button" variant="outline" className="justify-start" onClick={onNew}>
        <MessageSquarePlusIcon aria-hidden />
        {m.assistant_new()}
      </Button>
      {conversations.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {describeError(conversations.error)}
        </p>
      ) : conversations.data?.length === 0 ? (
        <p className="px-2 py-1 text-sm text-muted-foreground">{m.assistant_no_conversations()}</p>
      ) : (
        <ul className="grid min-w-0 gap-0.5" data-testid="conversation-list">
          {conversations.data?.map((conversation) => (
            <li key={conversation.id} className="flex min-w-0 items-center gap-1">
              <Link
                to="/console/assistant"
                search={{ c: conversation.id }}
                onClick={onNavigate}
                aria-current={conversation.id === activeId ? 'page' : undefined}
                className="min-w-0 flex-1 truncate rounded-md px-3 py-2 text-sm text-muted-foreground hover:bg-accent hover:text-accent-foreground aria-[current=page]:bg-accent aria-[current=page]:font-medium aria-[current=page]:text-foreground"
              >
                {conversation.title}
              </Link>
              <DropdownMenu>
                <DropdownMenuTrigger asChild>
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    className="size-8 shrink-0"
                    aria-label={m.assistant_actions({ title: conversation.title })}
                  >
                    <EllipsisIcon aria-hidden />
                  </Button>
                </DropdownMenuTrigger>
                <DropdownMenuContent align="end">
                  <DropdownMenuItem onSelect={() => setRenaming(conversation)}>
                    <PencilIcon aria-hidden />
                    {m.assistant_rename()}
                  </DropdownMenuItem>
                  <DropdownMenuItem onSelect={() => setDeleting(conversation)} className="text-destructive">
                    <Trash2Icon aria-hidden />
                    {m.assistant_delete()}
                  </DropdownMenuItem>
                </DropdownMenuContent>
              </DropdownMenu>
            </li>
          ))}
        </ul>
      )}
      {renaming ? <RenameDialog conversation={renaming} onClose={() => setRenaming(undefined)} /> : null}
      {deleting ? (
        <DeleteDialog
          conversation={deleting}
          onClose={() => setDeleting(undefined)}
          onDeleted={() => onDeleted(deleting.id)}
        />
      ) : null}
    </nav>
  )
}
