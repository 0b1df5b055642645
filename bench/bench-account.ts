// The benchmark's accounts, made through the app's own endpoints as a person would: signed up, upgraded to Pro
// through the built-in test provider, and given books. Shared by bench/http.ts and bench/goals.ts.
import { fail } from './load.ts'

/**
 * Signs up a throwaway account (a new one each run, so nothing depends on earlier runs) and returns its session
 * cookie; the server's own sign-up gives it a personal workspace to be active in.
 */
export async function signUpBenchAccount(origin: string): Promise<string> {
  const email = `bench-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
  const response = await fetch(new URL('/api/auth/sign-up/email', origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: origin },
    body: JSON.stringify({ name: 'Bench', email, password: `bench-${Date.now()}` }),
  })
  if (response.status !== 200) {
    fail(
      `Signing up a benchmark account answered ${response.status}: ${await response.text()}\n` +
        'Is APP_URL the address the benchmark uses (BENCH_URL)? Better Auth refuses other origins.',
    )
  }
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0] ?? '')
    .filter((pair) => !pair.endsWith('='))
    .join('; ')
}

/**
 * The cookie with a fresh signed session copy, as a browser holds it: the copy lasts SESSION_CACHE_SECONDS, and
 * wrk keeps the cookie it was given, so each signed-in row starts with a new one.
 */
export async function withFreshSessionCopy(origin: string, cookie: string): Promise<string> {
  const sessionToken = cookie.split('; ').filter((pair) => !pair.startsWith('hatch.session_data'))
  const response = await fetch(new URL('/api/auth/get-session', origin), {
    headers: { cookie: sessionToken.join('; ') },
  })
  if (response.status !== 200) fail(`Refreshing the benchmark session answered ${response.status}.`)
  const copies = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .filter((pair) => pair.startsWith('hatch.session_data') && !pair.endsWith('='))
  return [...sessionToken, ...copies].join('; ')
}

/** A tRPC mutation as the browser sends it; fails the run on an error answer. */
async function trpcMutation<T>(origin: string, path: string, cookie: string, input: unknown): Promise<T> {
  const response = await fetch(new URL(`/api/trpc/${path}`, origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: origin, cookie },
    body: JSON.stringify({ json: input }),
  })
  if (response.status !== 200) fail(`${path} answered ${response.status}: ${await response.text()}`)
  return ((await response.json()) as { result: { data: { json: T } } }).result.data.json
}

/**
 * Free holds 50 books, so the workspace buys Pro first, through the built-in test provider's checkout as a person
 * would (a server with Stripe keys cannot be benchmarked this way: use one without them).
 */
export async function upgradeBenchWorkspace(origin: string, cookie: string): Promise<void> {
  const { url } = await trpcMutation<{ url: string }>(origin, 'billing.startCheckout', cookie, {
    planId: 'pro',
    interval: 'monthly',
    currency: 'USD',
    locale: 'en',
  })
  const checkoutId = url.slice(url.lastIndexOf('/') + 1)
  if (!checkoutId.startsWith('lcs_')) fail(`Checkout went to ${url}, not the built-in test provider.`)
  await trpcMutation(origin, 'billing.local.settle', cookie, { id: checkoutId, outcome: 'pay' })
}

/** A tRPC query's URL (superjson input), as the browser sends it. */
export const trpcQuery = (procedure: string, input: unknown) =>
  `/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`

/**
 * Imports `count` sample books into the account's workspace (one CSV, as a person would) and waits until the
 * background import has written them. Returns the seconds it took.
 */
export async function importBenchBooks(origin: string, cookie: string, count: number): Promise<number> {
  const lines = ['title,authors,isbn,published_year,language,tags']
  const words = ['River', 'Garden', 'Machine', 'Harbour', 'Letter', 'Forest', '山河', '星河', 'Atlas', 'Lantern']
  for (let index = 0; index < count; index++) {
    lines.push(`The ${words[index % 10]} ${index},Author ${index % 97},,${1900 + (index % 125)},en,tag${index % 20}`)
  }
  const started = performance.now()
  const response = await fetch(new URL('/api/trpc/books.import', origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, cookie },
    body: JSON.stringify({ json: { csv: lines.join('\n'), dryRun: false } }),
  })
  if (response.status !== 200)
    fail(`Importing the benchmark books answered ${response.status}: ${await response.text()}`)
  // A file this large is written by a background job (book-import-job.ts): wait until the Books page would say done.
  const { importId } = ((await response.json()) as { result: { data: { json: { importId: string | null } } } }).result
    .data.json
  for (let waited = 0; importId; waited++) {
    const imports = await fetch(new URL(trpcQuery('books.imports', {}), origin), { headers: { cookie } })
    const body = (await imports.json()) as { result?: { data: { json: { id: string; status: string }[] } } }
    const status = body.result?.data.json.find((entry) => entry.id === importId)?.status
    if (status === 'done') break
    if (status === 'failed' || waited > 1200) fail(`The benchmark books' import ended ${status ?? 'out of sight'}.`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return (performance.now() - started) / 1000
}
