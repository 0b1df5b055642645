import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { toastError } from '#/lib/error-toast'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { getLocale } from '#/paraglide/runtime'
import { noticeKindOf, notificationTypes, typesWithOwnEmail } from '../notification-types'

/** Account → Notifications: which notifications also come by email (in the language the page is in). */
export function NotificationSettings() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const settings = useQuery(trpc.notifications.settings.queryOptions())
  const save = useMutation(trpc.notifications.updateSettings.mutationOptions())
  const [chosen, setChosen] = useState<string[] | null>(null)
  useEffect(() => {
    if (settings.data && chosen === null) setChosen(settings.data.emailTypes)
  }, [settings.data, chosen])
  if (!chosen) return <p className="mt-4 text-sm text-muted-foreground">{m.loading()}</p>
  const submit = async () => {
    try {
      const emailTypes = chosen.filter((type) => notificationTypes.includes(type))
      await save.mutateAsync({ emailTypes, locale: getLocale() })
      toast.success(m.notifications_settings_saved())
      await queryClient.invalidateQueries({ queryKey: trpc.notifications.settings.queryKey() })
    } catch (error) {
      toastError(error)
    }
  }
  return (
    <form
      className="mt-4 grid gap-3"
      onSubmit={(event) => {
        event.preventDefault()
        void submit()
      }}
    >
      <fieldset className="grid gap-2">
        <legend className="sr-only">{m.notifications_settings_title()}</legend>
        {notificationTypes.map((type) => {
          const ownEmail = typesWithOwnEmail.includes(type)
          return (
            <label key={type} className="flex items-start gap-2 text-sm has-disabled:opacity-70">
              <input
                type="checkbox"
                name="emailTypes"
                value={type}
                className="mt-0.5 size-4 shrink-0 accent-primary"
                checked={ownEmail || chosen.includes(type)}
                disabled={ownEmail}
                onChange={(event) =>
                  setChosen((current) =>
                    event.target.checked
                      ? [...(current ?? []), type]
                      : (current ?? []).filter((other) => other !== type),
                  )
                }
              />
              <span>
                {noticeKindOf(type)?.label()}
                {ownEmail ? (
                  <span className="ms-2 text-xs text-muted-foreground">{m.notifications_own_email()}</span>
                ) : null}
              </span>
            </label>
          )
        })}
      </fieldset>
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? m.saving() : m.save()}
        </Button>
      </div>
    </form>
  )
}
