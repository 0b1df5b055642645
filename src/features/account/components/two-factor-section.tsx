import { CopyIcon, DownloadIcon, ShieldCheckIcon, ShieldOffIcon } from 'lucide-react'
import QRCode from 'qrcode'
import { type FormEvent, type ReactNode, useEffect, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { oneTimeCodeSchema, twoFactorPasswordSchema } from '#/features/auth'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { sendWith, useAppForm } from '#/lib/form'
import type { SessionUser } from '#/lib/session-user'
import { useSiteSettings } from '#/lib/use-site-settings'
import { m } from '#/paraglide/messages'
import { useHasPassword } from '../linked-accounts-query'

/** What `/two-factor/enable` gives before the first code confirms that the app holds the key. */
interface PendingSetup {
  totpURI: string
  backupCodes: string[]
}

/**
 * Turns two-factor authentication on (password → QR code → a code from the app), shows the backup codes once, makes
 * new ones and turns it off; every change asks for the password again.
 */
export function TwoFactorSection({ user }: { user: SessionUser }) {
  // Two-factor protects the password sign-in, so it needs a password.
  const hasPassword = useHasPassword()
  const [setup, setSetup] = useState<PendingSetup | null>(null)
  const [backupCodes, setBackupCodes] = useState<string[] | null>(null)
  // Turned on here, before the refreshed session says so: "I have saved them" must not fall back to the setup form.
  const [enabledHere, setEnabledHere] = useState(false)
  useEffect(() => {
    if (user.twoFactorEnabled) setEnabledHere(false)
  }, [user.twoFactorEnabled])
  const twoFactorOn = user.twoFactorEnabled || enabledHere

  let body: ReactNode
  if (backupCodes) {
    body = <BackupCodes codes={backupCodes} account={user.email} onDone={() => setBackupCodes(null)} />
  } else if (twoFactorOn) {
    body = <ManageTwoFactor onNewBackupCodes={setBackupCodes} />
  } else if (setup) {
    body = (
      <ConfirmSetup
        setup={setup}
        onCancel={() => setSetup(null)}
        onEnabled={() => {
          setSetup(null)
          setEnabledHere(true)
          setBackupCodes(setup.backupCodes)
        }}
      />
    )
  } else if (hasPassword === false) {
    body = (
      <p className="mt-4 text-sm text-muted-foreground" data-testid="twofa-no-password">
        {m.twofa_no_password()}
      </p>
    )
  } else {
    body = <EnableTwoFactor onStarted={setSetup} />
  }

  return (
    <div className="mt-4 grid gap-4">
      <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="twofa-state">
        <span
          className={
            twoFactorOn
              ? 'inline-flex items-center gap-1 rounded-full border border-primary/40 px-2 py-0.5 text-xs font-medium text-primary'
              : 'inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs text-muted-foreground'
          }
        >
          {twoFactorOn ? <ShieldCheckIcon className="size-3.5" /> : <ShieldOffIcon className="size-3.5" />}
          {twoFactorOn ? m.twofa_state_on() : m.twofa_state_off()}
        </span>
        <span className="text-muted-foreground">
          {twoFactorOn ? m.twofa_state_on_detail() : m.twofa_state_off_detail()}
        </span>
      </p>
      {body}
    </div>
  )
}

function EnableTwoFactor({ onStarted }: { onStarted: (setup: PendingSetup) => void }) {
  const form = useAppForm({
    defaultValues: { password: '' },
    validators: { onDynamic: twoFactorPasswordSchema },
    onSubmit: async ({ value }) => {
      const { data, error } = await authClient.twoFactor.enable({ password: value.password })
      if (error) {
        toast.error(describeAuthError(error))
        return
      }
      if ('totpURI' in data && data.totpURI) onStarted({ totpURI: data.totpURI, backupCodes: data.backupCodes ?? [] })
    },
  })

  return (
    <form
      method="post"
      onSubmit={sendWith(form)}
      noValidate
      className="grid gap-4 sm:max-w-md"
      aria-label={m.twofa_title()}
    >
      <form.AppField name="password">
        {(field) => (
          <field.TextField label={m.twofa_password_label()} type="password" autoComplete="current-password" />
        )}
      </form.AppField>
      <form.Subscribe selector={(state) => state.isSubmitting}>
        {(submitting) => (
          <Button type="submit" className="w-fit" disabled={submitting}>
            {m.twofa_enable()}
          </Button>
        )}
      </form.Subscribe>
    </form>
  )
}

/** The key, base32, in groups of four so it can be typed into an app by hand. */
function secretOf(totpURI: string): string {
  const secret = new URL(totpURI).searchParams.get('secret') ?? ''
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret
}

function ConfirmSetup({
  setup,
  onCancel,
  onEnabled,
}: {
  setup: PendingSetup
  onCancel: () => void
  onEnabled: () => void
}) {
  const refresh = useAuthRefresh()
  const [qrCode, setQrCode] = useState<string | null>(null)
  const schema = oneTimeCodeSchema()
  const form = useAppForm({
    defaultValues: { code: '' },
    validators: { onDynamic: schema },
    onSubmit: async ({ value }) => {
      const { error } = await authClient.twoFactor.verifyTotp({ code: schema.parse(value).code })
      if (error) {
        toast.error(describeAuthError(error))
        return
      }
      toast.success(m.twofa_enabled())
      onEnabled()
      // The user (twoFactorEnabled) and the session (replaced by Better Auth) both changed.
      await refresh.session()
    },
  })

  useEffect(() => {
    let current = true
    QRCode.toString(setup.totpURI, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }).then((svg) => {
      if (current) setQrCode(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`)
    })
    return () => {
      current = false
    }
  }, [setup.totpURI])

  return (
    <form method="post" onSubmit={sendWith(form)} noValidate className="grid gap-4" aria-label={m.twofa_title()}>
      <p className="text-sm">{m.twofa_setup_scan()}</p>
      <div className="flex flex-wrap items-start gap-4">
        {/* A white square whatever the theme: scanners need dark modules on a light background. */}
        <div className="size-44 shrink-0 rounded-lg border bg-white p-1">
          {qrCode ? <img src={qrCode} alt={m.twofa_qr_alt()} className="size-full" data-testid="twofa-qr" /> : null}
        </div>
        <div className="grid min-w-0 gap-1 text-sm">
          <p className="text-muted-foreground">{m.twofa_secret_label()}</p>
          <code className="break-all rounded-md bg-secondary px-2 py-1 font-mono" data-testid="twofa-secret">
            {secretOf(setup.totpURI)}
          </code>
        </div>
      </div>
      <div className="sm:max-w-xs">
        <form.AppField name="code">
          {(field) => (
            <field.TextField
              label={m.twofa_setup_code_label()}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={12}
            />
          )}
        </form.AppField>
      </div>
      <div className="flex flex-wrap gap-2">
        <form.Subscribe selector={(state) => state.isSubmitting}>
          {(submitting) => (
            <Button type="submit" disabled={submitting}>
              {m.twofa_setup_submit()}
            </Button>
          )}
        </form.Subscribe>
        <Button type="button" variant="outline" onClick={onCancel}>
          {m.twofa_cancel()}
        </Button>
      </div>
    </form>
  )
}

function BackupCodes({ codes, account, onDone }: { codes: string[]; account: string; onDone: () => void }) {
  const { productName } = useSiteSettings()
  const asText = `${m.twofa_backup_file_intro({ account, product: productName })}\n\n${codes.join('\n')}\n`

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'))
      toast.success(m.twofa_backup_copied())
    } catch {
      toast.error(m.twofa_backup_copy_failed())
    }
  }

  const download = () => {
    const url = URL.createObjectURL(new Blob([asText], { type: 'text/plain;charset=utf-8' }))
    const link = document.createElement('a')
    link.href = url
    link.download = `${productName.toLowerCase().replace(/[^a-z0-9]+/g, '-') || 'backup'}-backup-codes.txt`
    link.click()
    URL.revokeObjectURL(url)
  }

  return (
    <section className="grid gap-3 rounded-lg border border-primary/40 p-4" aria-labelledby="twofa-backup-title">
      <h3 id="twofa-backup-title" className="font-medium">
        {m.twofa_backup_title()}
      </h3>
      <p className="text-sm text-muted-foreground">{m.twofa_backup_once()}</p>
      <ul
        aria-label={m.twofa_backup_list_label()}
        className="grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-sm sm:w-fit"
        data-testid="twofa-backup-codes"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" size="sm" onClick={copy}>
          <CopyIcon />
          {m.twofa_backup_copy()}
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={download}>
          <DownloadIcon />
          {m.twofa_backup_download()}
        </Button>
        <Button type="button" size="sm" onClick={onDone}>
          {m.twofa_backup_done()}
        </Button>
      </div>
    </section>
  )
}

type ManageAction = 'regenerate' | 'disable'

function ManageTwoFactor({ onNewBackupCodes }: { onNewBackupCodes: (codes: string[]) => void }) {
  const refresh = useAuthRefresh()
  const form = useAppForm({
    defaultValues: { password: '' },
    validators: { onDynamic: twoFactorPasswordSchema },
    // Two submit buttons share the password; the one pressed says what to do.
    onSubmitMeta: { action: 'regenerate' } as { action: ManageAction },
    onSubmit: async ({ value, formApi, meta }) => {
      if (meta.action === 'disable') {
        const { error } = await authClient.twoFactor.disable({ password: value.password })
        if (error) {
          toast.error(describeAuthError(error))
          return
        }
        toast.success(m.twofa_disabled())
        await refresh.session()
        return
      }
      const { data, error } = await authClient.twoFactor.generateBackupCodes({ password: value.password })
      if (error) {
        toast.error(describeAuthError(error))
        return
      }
      formApi.reset()
      toast.success(m.twofa_regenerated())
      onNewBackupCodes(data.backupCodes)
    },
  })

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    event.stopPropagation()
    const submitter = (event.nativeEvent as SubmitEvent).submitter
    void form.handleSubmit({ action: submitter?.getAttribute('value') === 'disable' ? 'disable' : 'regenerate' })
  }

  return (
    <form method="post" onSubmit={submit} noValidate className="grid gap-4 sm:max-w-md" aria-label={m.twofa_title()}>
      <p className="text-sm text-muted-foreground">{m.twofa_manage_hint()}</p>
      <form.AppField name="password">
        {(field) => (
          <field.TextField label={m.twofa_password_label()} type="password" autoComplete="current-password" />
        )}
      </form.AppField>
      <form.Subscribe selector={(state) => state.isSubmitting}>
        {(submitting) => (
          <div className="flex flex-wrap gap-2">
            <Button type="submit" name="action" value="regenerate" variant="outline" disabled={submitting}>
              {m.twofa_regenerate()}
            </Button>
            <Button
              type="submit"
              name="action"
              value="disable"
              variant="outline"
              className="border-destructive text-destructive"
              disabled={submitting}
            >
              {m.twofa_disable()}
            </Button>
          </div>
        )}
      </form.Subscribe>
    </form>
  )
}
