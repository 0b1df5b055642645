import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { toast } from 'sonner'
import { useTRPC } from '#/lib/trpc'
import { getLocale } from '#/paraglide/runtime'
import { followLiveStream, refusedStreamRetryMs } from '../live-stream'
import { notificationText } from '../notification-text'

/**
 * The person's notifications, kept current: a Server-Sent Events stream (/api/notifications) says when they change,
 * on this server or another, and the list is read again; a new unread one also shows as a toast. The stream comes back
 * after a drop or a refusal (followLiveStream), and the list is read again on each connection; while it is refused,
 * the list is read now and then instead.
 */
export function useLiveNotifications() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [live, setLive] = useState(true)
  const list = useQuery({
    ...trpc.notifications.list.queryOptions(),
    staleTime: 60_000,
    refetchInterval: live ? false : refusedStreamRetryMs,
  })
  const seen = useRef<Set<string> | null>(null)

  useEffect(() => {
    const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.notifications.list.queryKey() })
    return followLiveStream({
      url: `/api/notifications?lang=${getLocale()}`,
      on: { ready: refresh, notifications: refresh },
      onLive: setLive,
    })
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
