import { useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useCallback, useEffect, useRef, useState } from 'react'
import { Button } from '#/components/ui/button'
import { money, planSummary } from '#/features/billing'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { getLocale, localizeHref } from '#/paraglide/runtime'

/** Paddle.js v2, from Paddle's CDN: Paddle asks that it is loaded from there, never bundled. */
export const paddleScriptUrl = 'https://cdn.paddle.com/paddle/v2/paddle.js'

/** Long enough for a slow connection; past it the buyer is told the form did not load, rather than left waiting. */
const scriptTimeoutMs = 20_000

interface PaddleEvent {
  name?: string
}

/** The checkout settings this page gives Paddle.js. */
interface PaddleCheckoutSettings {
  displayMode: 'overlay'
  locale: string
  theme: 'light' | 'dark'
  successUrl: string
  allowLogout: boolean
}

/** The parts of Paddle.js this page uses. */
interface PaddleJs {
  Environment: { set(environment: 'sandbox'): void }
  Initialize(options: {
    token: string
    checkout: { settings: PaddleCheckoutSettings }
    eventCallback(event: PaddleEvent): void
  }): void
  Checkout: { open(options: { transactionId: string; settings?: PaddleCheckoutSettings }): void }
}

declare global {
  interface Window {
    Paddle?: PaddleJs
  }
}

type FormState = 'loading' | 'open' | 'closed' | 'paid' | 'failed'

/** Loads Paddle.js once per page; a failed load may be tried again. */
let paddleScript: Promise<PaddleJs> | undefined
function loadPaddle(): Promise<PaddleJs> {
  paddleScript ??= new Promise<PaddleJs>((resolve, reject) => {
    const script = document.createElement('script')
    script.src = paddleScriptUrl
    script.async = true
    const timer = window.setTimeout(() => reject(new Error('Paddle.js took too long')), scriptTimeoutMs)
    script.onload = () => {
      window.clearTimeout(timer)
      if (window.Paddle) resolve(window.Paddle)
      else reject(new Error('Paddle.js did not start'))
    }
    script.onerror = () => {
      window.clearTimeout(timer)
      reject(new Error('Paddle.js could not be loaded'))
    }
    document.head.append(script)
  }).catch((error: unknown) => {
    paddleScript = undefined
    document.querySelector(`script[src="${paddleScriptUrl}"]`)?.remove()
    throw error
  })
  return paddleScript
}

/**
 * Paddle.js may be initialized once per page (a second Initialize is an error), but this screen may be shown again
 * in the same page (Back, then Forward): its events go to whichever screen is showing now.
 */
let paddleInitialized = false
let paddleListener: ((event: PaddleEvent) => void) | null = null

/**
 * Paddle's payment form for one transaction, opened over the page: Paddle.js opens the transaction named in the
 * address (`_ptxn`) by itself when it starts, and on request after. Closing it leaves a way to open it again.
 */
function PaddleForm({
  transactionId,
  settings,
  successHref,
  purpose,
}: {
  transactionId: string
  settings: { clientToken: string; environment: 'sandbox' | 'production' }
  successHref: string
  /** A checkout goes on to its order and back to the pricing; a payment Paddle asked for, to and from Billing. */
  purpose: 'checkout' | 'payment'
}) {
  const [form, setForm] = useState<FormState>('loading')

  /** Loads Paddle.js and opens the form; returns how to ignore the outcome once the page is left. */
  const start = useCallback(() => {
    let active = true
    let loadTimer: number | undefined
    setForm('loading')
    const checkoutSettings: PaddleCheckoutSettings = {
      displayMode: 'overlay',
      locale: getLocale() === 'zh' ? 'zh-Hans' : 'en',
      theme: document.documentElement.classList.contains('dark') ? 'dark' : 'light',
      successUrl: new URL(successHref, window.location.origin).href,
      // The transaction belongs to this account's organization: the email is not changed on the form.
      allowLogout: false,
    }
    paddleListener = (event) => {
      if (!active) return
      if (event.name === 'checkout.loaded') {
        window.clearTimeout(loadTimer)
        setForm('open')
      }
      if (event.name === 'checkout.closed') setForm((state) => (state === 'paid' ? state : 'closed'))
      if (event.name === 'checkout.completed') setForm('paid')
      // Paddle refused to open it (a domain not approved, a transaction no longer payable): said, not waited on.
      if (event.name === 'checkout.error') {
        window.clearTimeout(loadTimer)
        setForm('failed')
      }
    }
    loadPaddle()
      .then((paddleJs) => {
        if (!active) return
        loadTimer = window.setTimeout(
          () => setForm((state) => (state === 'loading' ? 'failed' : state)),
          scriptTimeoutMs,
        )
        if (!paddleInitialized) {
          if (settings.environment === 'sandbox') paddleJs.Environment.set('sandbox')
          paddleJs.Initialize({
            token: settings.clientToken,
            checkout: { settings: checkoutSettings },
            eventCallback: (event) => paddleListener?.(event),
          })
          paddleInitialized = true
        } else {
          paddleJs.Checkout.open({ transactionId, settings: checkoutSettings })
        }
      })
      .catch(() => {
        if (active) setForm('failed')
      })
    return () => {
      active = false
      window.clearTimeout(loadTimer)
    }
  }, [settings, transactionId, successHref])

  const stopLast = useRef<(() => void) | undefined>(undefined)
  useEffect(() => {
    stopLast.current = start()
    return () => stopLast.current?.()
  }, [start])

  const openAgain = () => {
    stopLast.current?.()
    stopLast.current = start()
  }

  return (
    <div className="mt-6 grid gap-3" aria-live="polite" data-testid="paddle-checkout-form-state" data-state={form}>
      {form === 'loading' || form === 'open' ? (
        <p className="text-sm text-muted-foreground">{m.paddle_checkout_loading()}</p>
      ) : form === 'paid' ? (
        <p className="text-sm">{purpose === 'checkout' ? m.paddle_checkout_paid() : m.paddle_payment_done()}</p>
      ) : (
        <>
          <p className="text-sm">{form === 'failed' ? m.paddle_checkout_failed() : m.paddle_checkout_closed_hint()}</p>
          <Button onClick={openAgain}>
            {form === 'failed' ? m.paddle_checkout_retry() : m.paddle_checkout_open()}
          </Button>
          {purpose === 'checkout' ? (
            <BackToPricing variant="ghost" />
          ) : (
            <Button asChild variant="ghost">
              <Link to="/console/organization/billing">{m.paddle_payment_back()}</Link>
            </Button>
          )}
        </>
      )}
    </div>
  )
}

function BackToPricing({ variant }: { variant: 'ghost' | 'outline' }) {
  return (
    <Button asChild variant={variant}>
      <Link to="/" hash="pricing">
        {m.paddle_checkout_back()}
      </Link>
    </Button>
  )
}

/**
 * The app's checkout page for Paddle: Paddle's checkout link lands here (`?_ptxn=txn_…`), and Paddle.js opens its
 * payment form over the order's summary. Paddle's emails link here too, to pay a renewal or change the card: then
 * there is no order of Hatch's to show, and the form says what it is for.
 */
export function PaddleCheckoutScreen({ transactionId }: { transactionId: string }) {
  const trpc = useTRPC()
  const { data: checkout } = useSuspenseQuery(trpc.paddle.get.queryOptions({ transactionId }))

  if (checkout.kind === 'payment') {
    return (
      <main id="main" className="mx-auto w-full max-w-md px-4 py-12 sm:px-6">
        <h1 className="text-2xl font-semibold tracking-tight">{m.paddle_payment_title()}</h1>
        <p className="mt-2 text-sm text-muted-foreground">{m.paddle_payment_intro()}</p>
        {checkout.paddle && (
          <PaddleForm
            transactionId={transactionId}
            settings={checkout.paddle}
            successHref={localizeHref('/console/organization/billing')}
            purpose="payment"
          />
        )}
      </main>
    )
  }

  const orderHref = localizeHref(`/my-orders?order=${checkout.orderId}`)
  const outcome =
    checkout.status === 'complete'
      ? m.paddle_checkout_complete()
      : checkout.status === 'processing'
        ? m.local_pay_processing()
        : checkout.status === 'expired'
          ? m.local_pay_expired()
          : checkout.status === 'not_allowed'
            ? m.paddle_checkout_not_allowed()
            : checkout.status === 'closed'
              ? m.local_pay_closed()
              : null

  return (
    <main id="main" className="mx-auto w-full max-w-md px-4 py-12 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight">{m.local_pay_title()}</h1>
      <p className="mt-2 text-sm text-muted-foreground">{m.paddle_checkout_intro()}</p>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-xl border p-4 text-sm">
        <dt className="text-muted-foreground">{m.local_pay_organization()}</dt>
        <dd className="min-w-0 break-words">{checkout.organizationName}</dd>
        <dt className="text-muted-foreground">{m.local_pay_plan()}</dt>
        <dd>{planSummary(checkout.planId, checkout.interval, checkout.seats)}</dd>
        <dt className="text-muted-foreground">{m.local_pay_amount()}</dt>
        <dd className="font-semibold" data-testid="paddle-checkout-amount">
          {m.paddle_checkout_before_tax({ amount: money(checkout.amount, checkout.currency) })}
        </dd>
      </dl>
      {outcome ? (
        <div
          className="mt-6 grid gap-3 rounded-lg border border-dashed p-4 text-sm"
          data-testid="paddle-checkout-outcome"
        >
          <p>{outcome}</p>
          {checkout.status === 'complete' || checkout.status === 'processing' ? (
            <Button asChild variant="outline">
              <a href={orderHref}>{m.paddle_checkout_view_order()}</a>
            </Button>
          ) : (
            <BackToPricing variant="outline" />
          )}
        </div>
      ) : (
        checkout.paddle && (
          <PaddleForm
            transactionId={transactionId}
            settings={checkout.paddle}
            successHref={orderHref}
            purpose="checkout"
          />
        )
      )}
    </main>
  )
}
