import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { toast } from 'sonner'
import { LoadError } from '#/components/list-screen'
import { PageHeader } from '#/components/page-header'
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from '#/components/ui/alert-dialog'
import { Button } from '#/components/ui/button'
import { useConsoleSession } from '#/lib/console-session'
import { toastError } from '#/lib/error-toast'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { ConnectionForm, type Protocol } from './connection-form'
import { CopyValue } from './copy-value'
import { DomainCard } from './domain-card'
import './sso-messages'
import { SsoSteps } from './sso-steps'

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="grid gap-4 rounded-lg border p-4 sm:p-6" data-testid={testId}>
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  )
}

function StatusBadge({ status }: { status: string }) {
  return (
    <span className="rounded-full bg-muted px-2.5 py-1 text-xs font-medium" data-testid="sso-status">
      {status}
    </span>
  )
}

/** What the identity provider is to be told, for the protocol chosen (in the form while it is open). */
function ServiceProviderValues({
  protocol,
  urls,
}: {
  protocol: Protocol
  urls: { entityId: string; acsUrl: string; redirectUri: string }
}) {
  return (
    <div className="grid gap-4">
      {protocol === 'saml' ? (
        <div className="grid gap-3">
          <p className="text-sm text-muted-foreground">{m.sso_sp_saml_description()}</p>
          <dl className="grid gap-3">
            <CopyValue label={m.sso_sp_entity_id()} value={urls.entityId} testId="sso-entity-id" />
            <CopyValue label={m.sso_sp_acs()} value={urls.acsUrl} testId="sso-acs-url" />
          </dl>
        </div>
      ) : null}
      {protocol === 'oidc' ? (
        <div className="grid gap-3">
          <p className="text-sm text-muted-foreground">{m.sso_sp_oidc_description()}</p>
          <dl className="grid gap-3">
            <CopyValue label={m.sso_sp_redirect_uri()} value={urls.redirectUri} testId="sso-redirect-uri" />
          </dl>
        </div>
      ) : null}
    </div>
  )
}

/** The domain's proof and whether everyone at that domain must sign in through the organization's provider. */
function DomainSection({
  connection,
  organizationSlug,
}: {
  connection: { domain: string; domainVerified: boolean; requireSso: boolean; record: { name: string; value: string } }
  organizationSlug: string
}) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  // The choice shows from the click until the server's answer is in: the mutation's own pending state arrives a
  // moment after React has put the controlled box back, so it flickered off and on (and a quick test saw it off).
  const [requireChoice, setRequireChoice] = useState<boolean | undefined>()
  const setRequired = useMutation(
    trpc.sso.setRequired.mutationOptions({
      onSuccess: async (answer) => {
        await queryClient.invalidateQueries({ queryKey: trpc.sso.get.queryKey() })
        const { domain } = connection
        toast.success(answer.requireSso ? m.sso_required_on_toast({ domain }) : m.sso_required_off_toast({ domain }))
      },
      onError: toastError,
    }),
  )
  return (
    <Section title={m.sso_domain_label()} testId="sso-domain">
      <DomainCard domain={connection.domain} verified={connection.domainVerified} record={connection.record} />
      <div className="grid gap-1 border-t pt-4">
        <label className="flex items-start gap-3 text-sm font-medium">
          <input
            type="checkbox"
            className="mt-0.5 size-4 accent-primary"
            // Shows the choice at once; the server's answer confirms it (or a toast says why not).
            checked={requireChoice ?? connection.requireSso}
            disabled={!connection.domainVerified || requireChoice !== undefined}
            onChange={(event) => {
              const required = event.target.checked
              setRequireChoice(required)
              setRequired.mutate({ required }, { onSettled: () => setRequireChoice(undefined) })
            }}
            data-testid="sso-require"
          />
          {m.sso_require_label({ domain: connection.domain })}
        </label>
        <p className="ps-7 text-sm text-muted-foreground">
          {connection.domainVerified ? m.sso_require_hint() : m.sso_require_needs_domain()}
        </p>
      </div>
      {connection.domainVerified ? (
        <p className="text-sm text-muted-foreground" data-testid="sso-how-to-sign-in">
          {m.sso_how_people_sign_in({ slug: organizationSlug })}
        </p>
      ) : null}
    </Section>
  )
}

/**
 * Console → Organization → Single sign-on: the organization's identity provider (SAML 2.0 or OpenID Connect), the
 * values to give it, the domain proof, and whether the domain must use SSO.
 */
export function SsoScreen() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const { organization } = useConsoleSession()
  const query = useQuery(trpc.sso.get.queryOptions())
  const [editing, setEditing] = useState(false)
  const [removing, setRemoving] = useState(false)
  // The protocol picked in the form before it is saved; the saved connection's otherwise.
  const [chosenProtocol, setChosenProtocol] = useState<Protocol | null>(null)
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.sso.get.queryKey() })
  const remove = useMutation(
    trpc.sso.remove.mutationOptions({
      onSuccess: async () => {
        setRemoving(false)
        setEditing(false)
        await refresh()
        toast.success(m.sso_removed_toast())
      },
      onError: toastError,
    }),
  )

  if (query.isError) {
    return (
      <div>
        <PageHeader title={m.sso_title()} description={m.sso_description()} />
        <LoadError error={query.error} onRetry={() => query.refetch()} />
      </div>
    )
  }
  if (!query.data) return <PageHeader title={m.sso_title()} description={m.sso_description()} />
  const { connection, serviceProvider } = query.data
  const formOpen = !connection || editing
  const protocol = (formOpen ? chosenProtocol : null) ?? connection?.protocol ?? 'saml'
  const status = !connection
    ? m.sso_status_not_set()
    : !connection.domainVerified
      ? m.sso_status_waiting()
      : connection.requireSso
        ? m.sso_status_required({ domain: connection.domain })
        : m.sso_status_active()

  return (
    <div className="grid max-w-3xl gap-6">
      <PageHeader title={m.sso_title()} description={m.sso_description()} actions={<StatusBadge status={status} />} />
      <SsoSteps
        progress={{
          saved: Boolean(connection),
          domainVerified: Boolean(connection?.domainVerified),
          requireSso: Boolean(connection?.requireSso),
        }}
      />

      <Section title={m.sso_connection_title()} testId="sso-connection">
        {formOpen ? (
          <ConnectionForm
            defaults={{
              protocol: connection?.protocol ?? 'saml',
              domain: connection?.domain ?? '',
              issuer: connection?.protocol === 'oidc' ? connection.issuer : '',
              clientId: connection?.clientId ?? '',
            }}
            hasSecret={connection?.protocol === 'oidc'}
            onProtocolChange={setChosenProtocol}
            onDone={() => {
              setEditing(false)
              setChosenProtocol(null)
            }}
            onCancel={
              connection
                ? () => {
                    setEditing(false)
                    setChosenProtocol(null)
                  }
                : undefined
            }
          />
        ) : (
          <>
            <dl className="grid gap-3 text-sm sm:grid-cols-[max-content_1fr] sm:gap-x-6">
              <dt className="text-muted-foreground">{m.sso_protocol_label()}</dt>
              <dd>{connection.protocol === 'saml' ? m.sso_protocol_saml() : m.sso_protocol_oidc()}</dd>
              <dt className="text-muted-foreground">{m.sso_summary_issuer()}</dt>
              <dd className="break-all" data-testid="sso-issuer">
                {connection.issuer}
              </dd>
              {connection.ssoUrl ? (
                <>
                  <dt className="text-muted-foreground">{m.sso_summary_sign_on_url()}</dt>
                  <dd className="break-all">{connection.ssoUrl}</dd>
                </>
              ) : null}
              {connection.clientId ? (
                <>
                  <dt className="text-muted-foreground">{m.sso_summary_client_id()}</dt>
                  <dd className="break-all">{connection.clientId}</dd>
                </>
              ) : null}
              <dt className="text-muted-foreground">{m.sso_domain_label()}</dt>
              <dd>{connection.domain}</dd>
            </dl>
            <div className="flex flex-wrap gap-2">
              <Button type="button" variant="outline" onClick={() => setEditing(true)}>
                {m.sso_edit()}
              </Button>
              <Button type="button" variant="destructive" onClick={() => setRemoving(true)}>
                {m.sso_remove()}
              </Button>
            </div>
          </>
        )}
      </Section>

      <Section title={m.sso_sp_title()} testId="sso-service-provider">
        <ServiceProviderValues protocol={protocol} urls={serviceProvider} />
      </Section>

      {connection ? <DomainSection connection={connection} organizationSlug={organization.slug} /> : null}

      <AlertDialog open={removing} onOpenChange={setRemoving}>
        <AlertDialogContent>
          <AlertDialogTitle>{m.sso_remove_title()}</AlertDialogTitle>
          <AlertDialogDescription>{m.sso_remove_description()}</AlertDialogDescription>
          <AlertDialogFooter>
            <AlertDialogCancel>{m.sso_cancel_edit()}</AlertDialogCancel>
            <Button variant="destructive" disabled={remove.isPending} onClick={() => remove.mutate()}>
              {m.sso_remove()}
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  )
}
