import { useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useCallback, useEffect, useRef, useState } from 'react'
import { Button } from '#/components/ui/button'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { getLocale, localizeHref } from '#/paraglide/runtime'
import { money, planSummary } from '../billing-format'

/** Paddle.js v2, from Paddle's CDN: Paddle asks that it is loaded from there, never bundled. */
export const paddleScriptUrl = 'https://cdn.paddle.com/paddle/v2/paddle.js'

/** Long enough for a slow connection; past it the buyer is told the form did not load, rather than left waiting. */
const scriptTimeoutMs = 20_000

interface PaddleEvent {
  name?: string
}

/** The parts of Paddle.js this page uses. */
interface PaddleJs {
  Environment: { set(environment: 'sandbox'): void }
  Initialize(options: {
    token: string
    checkout: {
      settings: {
        displayMode: 'overlay'
        locale: string
        theme: 'light' | 'dark'
        successUrl: string
        allowLogout: boolean
      }
    }
    eventCallback(event: PaddleEvent): void
  }): void
  Checkout: { open(options: { transactionId: string }): void }
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
 * The app's checkout page for Paddle: Paddle's checkout link lands here (`?_ptxn=txn_…`), and Paddle.js opens its
 * payment form over the order's summary. Closing the form leaves the buyer here, with a way to open it again.
 */
export function PaddleCheckoutScreen({ transactionId }: { transactionId: string }) {
  const trpc = useTRPC()
  const { data: checkout } = useSuspenseQuery(trpc.billing.paddle.get.queryOptions({ transactionId }))
  const [form, setForm] = useState<FormState>('loading')
  const paddle = useRef<PaddleJs | null>(null)
  const orderHref = localizeHref(`/my-orders?order=${checkout.orderId}`)
  const settings = checkout.paddle

  /** Loads Paddle.js and opens the form; returns how to ignore the outcome once the page is left. */
  const start = useCallback(() => {
    if (!settings) return undefined
    let active = true
    setForm('loading')
    loadPaddle()
      .then((paddleJs) => {
        if (!active) return
        if (!paddle.current) {
          if (settings.environment === 'sandbox') paddleJs.Environment.set('sandbox')
          // Paddle.js opens the transaction named by `_ptxn` in the page's address by itself once initialized.
          paddleJs.Initialize({
            token: settings.clientToken,
            checkout: {
              settings: {
                displayMode: 'overlay',
                locale: getLocale() === 'zh' ? 'zh-Hans' : 'en',
                theme: document.documentElement.classList.contains('dark') ? 'dark' : 'light',
                successUrl: new URL(orderHref, window.location.origin).href,
                // The order belongs to this account's organization: the buyer's email is not changed on the form.
                allowLogout: false,
              },
            },
            eventCallback: (event) => {
              if (event.name === 'checkout.loaded') setForm('open')
              if (event.name === 'checkout.closed') setForm((state) => (state === 'paid' ? state : 'closed'))
              if (event.name === 'checkout.completed') setForm('paid')
            },
          })
          paddle.current = paddleJs
        } else {
          paddleJs.Checkout.open({ transactionId })
        }
      })
      .catch(() => {
        if (active) setForm('failed')
      })
    return () => {
      active = false
    }
  }, [settings, transactionId, orderHref])

  useEffect(() => start(), [start])

  const openAgain = () => {
    if (!paddle.current) {
      start()
      return
    }
    setForm('loading')
    paddle.current.Checkout.open({ transactionId })
  }

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
            <Button asChild variant="outline">
              <Link to="/" hash="pricing">
                {m.paddle_checkout_back()}
              </Link>
            </Button>
          )}
        </div>
      ) : (
        <div className="mt-6 grid gap-3" aria-live="polite" data-testid="paddle-checkout-form-state" data-state={form}>
          {form === 'loading' || form === 'open' ? (
            <p className="text-sm text-muted-foreground">{m.paddle_checkout_loading()}</p>
          ) : form === 'paid' ? (
            <p className="text-sm">{m.paddle_checkout_paid()}</p>
          ) : (
            <>
              <p className="text-sm">
                {form === 'failed' ? m.paddle_checkout_failed() : m.paddle_checkout_closed_hint()}
              </p>
              <Button onClick={openAgain}>
                {form === 'failed' ? m.paddle_checkout_retry() : m.paddle_checkout_open()}
              </Button>
              <Button asChild variant="ghost">
                <Link to="/" hash="pricing">
                  {m.paddle_checkout_back()}
                </Link>
              </Button>
            </>
          )}
        </div>
      )}
    </main>
  )
}
