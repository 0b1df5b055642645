import { locales } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
import { authForDatabase } from '#/server/auth/auth'
import { readSession } from '#/server/auth/session-reads'
import type { Database } from '#/server/db/client'
import { claimStreamPlace, holdStream, onLiveUpdate, streamPlaceLifetimeMs } from '#/server/live-updates'
import { log } from '#/server/log'
import { localeOfRequest } from '#/server/request-locale'
import { rememberLanguage } from './notify'

/** A comment line this often keeps proxies from closing a quiet stream (most give up after 60 s). */
const keepAliveMs = 25_000

const json = (status: number, code: string, message: string) =>
  Response.json({ error: { code, message } }, { status, headers: { 'cache-control': 'no-store' } })

/**
 * GET /api/notifications: a Server-Sent Events stream telling the signed-in person's console that their notifications
 * changed (`event: notifications`); the page then reads them through tRPC. Only the session cookie is read: an API key
 * has no console to tell. The stream ends when the page goes or the server stops; EventSource reconnects by itself.
 * A person holds at most `streamsPerPersonMax` streams (src/server/live-updates.ts); one more is refused with 429 and
 * Retry-After, and that page asks again after a while (followLiveStream), reading its notifications meanwhile.
 */
export async function answerNotificationStream(request: Request, db: Database): Promise<Response> {
  // The cookie alone: an API key or a bearer token names no console to tell.
  const cookieOnly = new Headers({ cookie: request.headers.get('cookie') ?? '' })
  const lang = new URL(request.url).searchParams.get('lang')
  const locale =
    lang && (locales as readonly string[]).includes(lang)
      ? (lang as (typeof locales)[number])
      : localeOfRequest(request)
  const { session } = await readSession(authForDatabase(db), cookieOnly)
  if (!session) return json(401, 'UNAUTHORIZED', m.error_code_UNAUTHORIZED({}, { locale }))
  const userId = session.user.id
  await rememberLanguage(db, userId, locale).catch((error: unknown) =>
    log().warn({ err: error }, 'the language for notification emails was not saved'),
  )
  const place = await claimStreamPlace(userId)
  if (!place) {
    return Response.json(
      { error: { code: 'TOO_MANY_STREAMS', message: m.error_code_TOO_MANY_STREAMS({}, { locale }) } },
      { status: 429, headers: { 'cache-control': 'no-store', 'retry-after': String(streamPlaceLifetimeMs / 1000) } },
    )
  }
  const encoder = new TextEncoder()
  let finish: () => void = () => undefined
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true
      const send = (text: string) => {
        if (!open) return
        try {
          controller.enqueue(encoder.encode(text))
        } catch {
          finish()
        }
      }
      const stopListening = onLiveUpdate(userId, (update) => send(`event: ${update.topic}\ndata: {}\n\n`))
      const keepAlive = setInterval(() => {
        send(': still here\n\n')
        place.renew()
      }, keepAliveMs)
      const release = holdStream(() => finish())
      finish = () => {
        if (!open) return
        open = false
        stopListening()
        clearInterval(keepAlive)
        release()
        place.release()
        try {
          controller.close()
        } catch {
          // Already closed by the client.
        }
      }
      request.signal.addEventListener('abort', () => finish(), { once: true })
      // A page gone before the stream began would otherwise keep its place until the server stops.
      if (request.signal.aborted) finish()
      // The page reconnects 5 s after a drop, and reads once on connecting (it may have missed something meanwhile).
      send('retry: 5000\n\nevent: ready\ndata: {}\n\n')
    },
    cancel() {
      finish()
    },
  })
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // nginx and other proxies otherwise hold the events back to fill their buffers.
      'x-accel-buffering': 'no',
    },
  })
}
