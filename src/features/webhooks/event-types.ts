import { allEventKinds } from '#/event-kinds.gen'

/**
 * What an endpoint can subscribe to: what happens in the organization, named as the receiver sees it in `type`, as the
 * core and the installed apps declare it (src/lib/event-kinds.ts). Apart from events.ts, which the route's search
 * (in every page's first script) reads: only the endpoint's form and the server need these and their words.
 */
export const webhookEventTypes: readonly string[] = allEventKinds.map((kind) => kind.type)
