import { useMutation, useQueryClient } from '@tanstack/react-query'
import { CircleCheckIcon } from 'lucide-react'
import { useState } from 'react'
import { FormNotice } from '#/components/form-notice'
import { Button } from '#/components/ui/button'
import { toastError } from '#/lib/error-toast'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { CopyValue } from './copy-value'

type CheckResult = 'verified' | 'record-missing' | 'record-different' | 'lookup-failed'

const resultMessages: Record<Exclude<CheckResult, 'verified'>, () => string> = {
  'record-missing': m.sso_check_missing,
  'record-different': m.sso_check_different,
  'lookup-failed': m.sso_check_failed,
}

/** The domain proof: the TXT record to publish, and "Check" (the answer says what was found). */
export function DomainCard({
  domain,
  verified,
  record,
}: {
  domain: string
  verified: boolean
  record: { name: string; value: string }
}) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [result, setResult] = useState<CheckResult | null>(null)
  const check = useMutation(
    trpc.sso.verifyDomain.mutationOptions({
      onSuccess: async (answer) => {
        setResult(answer.result)
        if (answer.result === 'verified') await queryClient.invalidateQueries({ queryKey: trpc.sso.get.queryKey() })
      },
      onError: toastError,
    }),
  )
  if (verified) {
    return (
      <p className="flex items-center gap-2 text-sm" data-testid="sso-domain-verified">
        <CircleCheckIcon className="size-4 text-emerald-600 dark:text-emerald-400" aria-hidden />
        {m.sso_domain_verified({ domain })}
      </p>
    )
  }
  return (
    <div className="grid gap-3" data-testid="sso-domain-check">
      <h3 className="font-medium">{m.sso_domain_title({ domain })}</h3>
      <p className="text-sm text-muted-foreground">{m.sso_domain_instructions()}</p>
      <dl className="grid gap-3">
        <CopyValue label={m.sso_record_type()} value="TXT" />
        <CopyValue label={m.sso_record_name()} value={record.name} testId="sso-record-name" />
        <CopyValue label={m.sso_record_value()} value={record.value} testId="sso-record-value" />
      </dl>
      {result && result !== 'verified' ? <FormNotice>{resultMessages[result]()}</FormNotice> : null}
      <div>
        <Button type="button" onClick={() => check.mutate()} disabled={check.isPending}>
          {m.sso_check()}
        </Button>
      </div>
    </div>
  )
}
