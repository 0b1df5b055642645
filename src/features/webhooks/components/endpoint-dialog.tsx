import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#/components/ui/dialog'
import { toastError } from '#/lib/error-toast'
import { translateMessage } from '#/lib/errors'
import { sendWith, showServerFieldErrors, useAppForm } from '#/lib/form'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { getLocale } from '#/paraglide/runtime'
import { webhookEventTypes } from '../event-types'
import { webhookLimits } from '../events'
import { webhookEndpointSchema } from '../schemas'
import { eventLabel } from './webhook-labels'

export interface EditableEndpoint {
  id: string
  url: string
  description: string
  events: string[]
}

const formFields = ['url', 'description', 'events'] as const

/**
 * Adds an endpoint, or edits one (`endpoint` given): its URL, what it is for, and the events it receives. A new
 * endpoint's signing secret goes to `onCreated`, to be shown once.
 */
export function EndpointDialog({
  endpoint,
  onClose,
  onCreated,
}: {
  endpoint?: EditableEndpoint
  onClose: () => void
  onCreated: (secret: string) => void
}) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const create = useMutation(trpc.webhooks.create.mutationOptions())
  const update = useMutation(trpc.webhooks.update.mutationOptions())
  const form = useAppForm({
    defaultValues: {
      url: endpoint?.url ?? '',
      description: endpoint?.description ?? '',
      // A kind no installed part declares any more (its app was removed) has no box to untick: it is left out.
      events: (endpoint?.events ?? []).filter((type) => webhookEventTypes.includes(type)),
    },
    validators: { onDynamic: webhookEndpointSchema },
    onSubmit: async ({ value, formApi }) => {
      const input = webhookEndpointSchema.parse(value)
      try {
        if (endpoint) {
          await update.mutateAsync({ id: endpoint.id, endpoint: input })
          toast.success(m.webhooks_saved())
        } else {
          const created = await create.mutateAsync({ ...input, locale: getLocale() })
          toast.success(m.webhooks_created())
          onCreated(created.secret)
        }
      } catch (error) {
        if (!showServerFieldErrors(formApi, error, formFields)) toastError(error)
        return
      }
      await queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() })
      onClose()
    },
  })
  const title = endpoint ? m.webhooks_edit_title() : m.webhooks_add_title()
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-xl">
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription className="sr-only">{title}</DialogDescription>
        <form aria-label={title} noValidate className="grid gap-4" onSubmit={sendWith(form)}>
          <form.AppField name="url">
            {(field) => (
              <field.TextField
                label={m.webhooks_url()}
                hint={m.webhooks_url_hint()}
                type="url"
                placeholder="https://"
                autoComplete="off"
                spellCheck={false}
                maxLength={webhookLimits.urlMax}
              />
            )}
          </form.AppField>
          <form.AppField name="description">
            {(field) => (
              <field.TextField
                label={m.webhooks_description_label()}
                hint={m.webhooks_description_hint()}
                maxLength={webhookLimits.descriptionMax}
                autoComplete="off"
              />
            )}
          </form.AppField>
          <form.Field name="events">
            {(field) => {
              const error = field.state.meta.errors.find(Boolean) as string | { message?: string } | undefined
              const message = typeof error === 'string' ? error : error?.message
              return (
                <fieldset className="grid gap-2" aria-describedby={message ? 'webhook-events-error' : undefined}>
                  <legend className="mb-1 text-sm font-medium">{m.webhooks_events()}</legend>
                  {webhookEventTypes.map((type) => (
                    <label key={type} className="flex items-start gap-2 text-sm">
                      <input
                        type="checkbox"
                        name="events"
                        value={type}
                        checked={field.state.value.includes(type)}
                        onChange={(event) =>
                          field.handleChange((events) =>
                            event.target.checked ? [...events, type] : events.filter((other) => other !== type),
                          )
                        }
                        onBlur={field.handleBlur}
                        className="mt-0.5 size-4 shrink-0 accent-primary"
                      />
                      <span>
                        {eventLabel(type)}
                        <code className="ms-2 font-mono text-xs text-muted-foreground">{type}</code>
                      </span>
                    </label>
                  ))}
                  {message ? (
                    <p id="webhook-events-error" className="text-sm text-destructive" data-testid="error-events">
                      {translateMessage(message)}
                    </p>
                  ) : null}
                </fieldset>
              )
            }}
          </form.Field>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={onClose}>
              {m.webhooks_cancel()}
            </Button>
            <form.AppForm>
              <form.SubmitButton pendingLabel={m.saving()}>{m.webhooks_save()}</form.SubmitButton>
            </form.AppForm>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}
