import { CheckIcon, CopyIcon } from 'lucide-react'
import { useState } from 'react'
import { Button } from '#/components/ui/button'
import { m } from '#/paraglide/messages'

/** A value to paste elsewhere (an identity provider's form, a DNS record), with its label and a Copy button. */
export function CopyValue({ label, value, testId }: { label: string; value: string; testId?: string }) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    await navigator.clipboard.writeText(value)
    setCopied(true)
    setTimeout(() => setCopied(false), 2000)
  }
  return (
    <div className="grid gap-1">
      <dt className="text-sm font-medium">{label}</dt>
      <dd className="flex min-w-0 items-center gap-2">
        <code
          className="min-w-0 flex-1 rounded-md bg-muted px-2 py-1.5 font-mono text-xs break-all"
          data-testid={testId}
        >
          {value}
        </code>
        <Button
          type="button"
          variant="outline"
          size="icon"
          onClick={copy}
          aria-label={copied ? m.sso_copied() : m.sso_copy({ what: label })}
          title={copied ? m.sso_copied() : m.sso_copy({ what: label })}
        >
          {copied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
        </Button>
      </dd>
    </div>
  )
}
