import { CircleCheckIcon } from 'lucide-react'
import { getLocale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'

interface Progress {
  saved: boolean
  domainVerified: boolean
  requireSso: boolean
}

/**
 * The whole setup in order, before any form: someone who has never configured an identity provider learns what the
 * page will ask, which providers fit, that the domain must be proven in DNS, and where the long guide is.
 */
export function SsoSteps({ progress }: { progress: Progress }) {
  // A step that cannot be seen from here (testing) is never marked done.
  const steps = [
    { title: m.sso_step_domain_title(), body: m.sso_step_domain_body(), done: progress.saved },
    { title: m.sso_step_verify_title(), body: m.sso_step_verify_body(), done: progress.domainVerified },
    { title: m.sso_step_protocol_title(), body: m.sso_step_protocol_body(), done: progress.saved },
    { title: m.sso_step_test_title(), body: m.sso_step_test_body(), done: false },
    { title: m.sso_step_require_title(), body: m.sso_step_require_body(), done: progress.requireSso },
  ]
  return (
    <section
      aria-labelledby="sso-steps-title"
      className="grid gap-4 rounded-lg border bg-muted/40 p-4 sm:p-6"
      data-testid="sso-steps"
    >
      <h2 id="sso-steps-title" className="text-lg font-semibold">
        {m.sso_steps_title()}
      </h2>
      <p className="text-sm text-muted-foreground" data-testid="sso-providers">
        {m.sso_steps_intro()}
      </p>
      <ol className="grid gap-3">
        {steps.map((step, index) => (
          <li key={step.title} className="flex gap-3" data-testid="sso-step">
            <span
              className="flex size-6 shrink-0 items-center justify-center rounded-full border bg-background text-xs font-semibold tabular-nums"
              aria-hidden
            >
              {index + 1}
            </span>
            <div className="grid min-w-0 gap-0.5">
              <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
                {step.title}
                {step.done ? (
                  <span className="inline-flex items-center gap-1 text-xs font-normal text-emerald-700 dark:text-emerald-400">
                    <CircleCheckIcon className="size-3.5" aria-hidden />
                    {m.sso_step_done()}
                  </span>
                ) : null}
              </p>
              <p className="text-sm text-muted-foreground">{step.body}</p>
            </div>
          </li>
        ))}
      </ol>
      <p className="text-sm">
        <a href={`/${getLocale()}/docs/sso`} className="text-primary underline underline-offset-4">
          {m.sso_steps_docs()}
        </a>
      </p>
    </section>
  )
}
