import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { toast } from 'sonner'
import { useTRPC } from '#/lib/trpc'
import { getLocale } from '#/paraglide/runtime'
import { notificationText } from '../notification-text'

/**
 * The person's notifications, kept current: a Server-Sent Events stream (/api/notifications) says when they change,
 * on this server or another, and the list is read again; a new unread one also shows as a toast. EventSource
 * reconnects by itself after a drop or a server restart, and the list is read again on each connection.
 */
export function useLiveNotifications() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const list = useQuery({ ...trpc.notifications.list.queryOptions(), staleTime: 60_000 })
  const seen = useRef<Set<string> | null>(null)

  useEffect(() => {
    const source = new EventSource(`/api/notifications?lang=${getLocale()}`)
    const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.notifications.list.queryKey() })
    source.addEventListener('ready', refresh)
    source.addEventListener('notifications', refresh)
    return () => source.close()
  }, [queryClient, trpc])

  useEffect(() => {
    if (!list.data) return
    const known = seen.current
    seen.current = new Set(list.data.items.map((item) => item.id))
    // The first list is what was there already; only what arrives later is announced.
    if (!known) return
    for (const item of list.data.items) {
      if (!known.has(item.id) && !item.readAt) toast(notificationText(item.type, item.params))
    }
  }, [list.data])

  return list
}
