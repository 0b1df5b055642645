import { SparklesIcon } from 'lucide-react'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { EmptyState } from './empty-state'

/** What every AI surface shows until an operator sets AI_BASE_URL and AI_MODEL: nothing is sent anywhere. */
export function AiNotConfigured() {
  return (
    <div data-testid="ai-not-configured">
      <EmptyState icon={SparklesIcon} title={m.ai_not_configured_title()}>
        <p>{m.ai_not_configured_body()}</p>
        <p className="mt-3">
          <a className="font-medium text-primary underline underline-offset-4" href={localizeHref('/docs/ai')}>
            {m.ai_not_configured_link()}
          </a>
        </p>
      </EmptyState>
    </div>
  )
}
