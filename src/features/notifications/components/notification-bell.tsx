import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useRouter } from '@tanstack/react-router'
import { BellIcon, CheckCheckIcon } from 'lucide-react'
import { MenuButton } from '#/components/menu-button'
import { Button } from '#/components/ui/button'
import { toastError } from '#/lib/error-toast'
import { currentIntlLocale } from '#/lib/i18n'
import { useTRPC } from '#/lib/trpc'
import { cn } from '#/lib/utils'
import { m } from '#/paraglide/messages'
import { notificationText } from '../notification-text'
import { useLiveNotifications } from './use-live-notifications'

const ago = (date: Date | string) =>
  new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(date))

/** The console header's bell: how many are unread, and the newest notifications, each leading to what it is about. */
export function NotificationBell() {
  const trpc = useTRPC()
  const router = useRouter()
  const queryClient = useQueryClient()
  const list = useLiveNotifications()
  const markRead = useMutation(trpc.notifications.markRead.mutationOptions())
  const markAllRead = useMutation(trpc.notifications.markAllRead.mutationOptions())
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.notifications.list.queryKey() })
  const unread = list.data?.unread ?? 0
  const items = list.data?.items ?? []
  const label = unread > 0 ? m.notifications_bell_unread({ count: String(unread) }) : m.notifications_bell()

  const open = async (item: (typeof items)[number]) => {
    if (!item.readAt) await markRead.mutateAsync({ ids: [item.id] }).catch(toastError)
    await refresh()
    if (item.link) await router.navigate({ href: item.link })
  }
  return (
    <MenuButton
      align="end"
      className="w-80 max-w-[calc(100vw-1rem)] p-0"
      trigger={
        <Button variant="ghost" size="icon" className="relative" aria-label={label} title={label}>
          <BellIcon aria-hidden />
          {unread > 0 ? (
            <span
              className="absolute top-1 right-1 flex min-w-4 items-center justify-center rounded-full bg-primary px-1 text-[10px] leading-4 font-semibold text-primary-foreground"
              data-testid="notification-count"
              aria-hidden
            >
              {unread > 99 ? '99+' : unread}
            </span>
          ) : null}
        </Button>
      }
    >
      {({ DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator }) => (
        <>
          <div className="flex items-center justify-between gap-2 px-3 py-2">
            <DropdownMenuLabel className="p-0 text-sm font-semibold">{m.notifications_title()}</DropdownMenuLabel>
            {unread > 0 ? (
              <DropdownMenuItem
                className="h-7 gap-1 px-2 text-xs"
                onSelect={(event) => {
                  event.preventDefault()
                  void markAllRead.mutateAsync().then(refresh, toastError)
                }}
              >
                <CheckCheckIcon aria-hidden className="size-3.5" />
                {m.notifications_mark_all_read()}
              </DropdownMenuItem>
            ) : null}
          </div>
          <DropdownMenuSeparator className="m-0" />
          {items.length === 0 ? (
            <p className="px-3 py-6 text-center text-sm text-muted-foreground">{m.notifications_empty()}</p>
          ) : (
            <div className="max-h-96 overflow-y-auto py-1" data-testid="notification-list">
              {items.map((item) => (
                <DropdownMenuItem
                  key={item.id}
                  className="flex items-start gap-2 px-3 py-2 whitespace-normal"
                  onSelect={() => void open(item)}
                  data-testid="notification"
                >
                  <span
                    className={cn('mt-1.5 size-2 shrink-0 rounded-full', item.readAt ? 'bg-transparent' : 'bg-primary')}
                    aria-hidden
                  />
                  <span className="grid gap-0.5">
                    <span className={cn('text-sm', !item.readAt && 'font-medium')}>
                      {!item.readAt ? <span className="sr-only">{m.notifications_unread()}: </span> : null}
                      {notificationText(item.type, item.params)}
                    </span>
                    <time className="text-xs text-muted-foreground" dateTime={new Date(item.createdAt).toISOString()}>
                      {ago(item.createdAt)}
                    </time>
                  </span>
                </DropdownMenuItem>
              ))}
            </div>
          )}
        </>
      )}
    </MenuButton>
  )
}
