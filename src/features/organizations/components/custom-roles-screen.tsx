import { Link } from '@tanstack/react-router'
import { PencilIcon, PlusIcon, ShieldCheckIcon, Trash2Icon } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { EmptyState } from '#/components/empty-state'
import { PageHeader } from '#/components/page-header'
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '#/components/ui/alert-dialog'
import { Button } from '#/components/ui/button'
import { builtInRoleStatements, builtInRoles, type Resource } from '#/lib/access-control'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { useCan, useConsoleSession } from '#/lib/console-session'
import { roleLabel } from '#/lib/role-labels'
import { m } from '#/paraglide/messages'
import { type CustomRole, useCustomRoles } from '../organization-queries'
import { CustomRoleDialog } from './custom-role-dialog'
import { actionLabel, resourceLabels } from './permission-labels'
import { QueryState } from './query-state'

/** "Books: create, read · Roles: read": what a role grants, one resource after another. */
function PermissionSummary({ permission }: { permission: Partial<Record<string, readonly string[]>> }) {
  const granted = Object.entries(permission).filter(([, actions]) => (actions?.length ?? 0) > 0)
  if (granted.length === 0) return <p className="text-sm text-muted-foreground">{m.roles_grants_nothing()}</p>
  return (
    <ul className="mt-1 grid gap-0.5 text-sm text-muted-foreground">
      {granted.map(([resource, actions]) => (
        <li key={resource}>
          <span className="font-medium text-foreground">{resourceLabels[resource as Resource]?.() ?? resource}</span>
          {': '}
          {(actions ?? []).map(actionLabel).join(m.list_separator())}
        </li>
      ))}
    </ul>
  )
}

function DeleteRole({ role }: { role: CustomRole }) {
  const session = useConsoleSession()
  const refresh = useAuthRefresh()
  const remove = async () => {
    const { error } = await authClient.organization.deleteRole({
      roleName: role.role,
      organizationId: session.organization.id,
    })
    if (error) {
      toast.error(describeAuthError(error), {
        description: error.code === 'ROLE_IS_ASSIGNED_TO_MEMBERS' ? m.roles_reassign_hint() : undefined,
      })
      return
    }
    toast.success(m.roles_deleted({ role: roleLabel(role.role) }))
    await refresh.activeOrganization()
  }
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={m.roles_delete_named({ role: roleLabel(role.role) })}>
          <Trash2Icon aria-hidden />
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogTitle>{m.roles_delete_named({ role: roleLabel(role.role) })}</AlertDialogTitle>
        <AlertDialogDescription>
          {m.roles_delete_body()}{' '}
          <Link to="/console/organization/members" className="text-primary underline-offset-4 hover:underline">
            {m.console_org_members()}
          </Link>
        </AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>{m.cancel()}</AlertDialogCancel>
          <Button variant="destructive" onClick={remove}>
            {m.roles_delete()}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}

/** The built-in roles and the organization's own, what each grants, and (with `ac` permissions) managing custom ones. */
export function CustomRolesScreen() {
  const query = useCustomRoles()
  const canCreate = useCan({ ac: ['create'] })
  const canUpdate = useCan({ ac: ['update'] })
  const canDelete = useCan({ ac: ['delete'] })
  const [editing, setEditing] = useState<{ role?: CustomRole } | null>(null)
  return (
    <div className="max-w-4xl">
      <PageHeader
        title={m.roles_title()}
        description={m.roles_description()}
        actions={
          canCreate ? (
            <Button onClick={() => setEditing({})}>
              <PlusIcon aria-hidden />
              {m.roles_create()}
            </Button>
          ) : null
        }
      />
      <section aria-labelledby="custom-roles-title">
        <h2 id="custom-roles-title" className="mb-3 font-semibold">
          {m.roles_custom_title()}
        </h2>
        <QueryState query={query}>
          {(roles) =>
            roles.length === 0 ? (
              <EmptyState icon={ShieldCheckIcon} title={m.roles_empty_title()}>
                {m.roles_empty()}
              </EmptyState>
            ) : (
              <ul className="divide-y rounded-xl border" data-testid="custom-roles">
                {roles.map((role) => (
                  <li key={role.id} className="flex items-start gap-3 p-4">
                    <div className="min-w-0 flex-1">
                      <p className="font-medium">
                        {roleLabel(role.role)}
                        <span className="ms-2 font-mono text-xs text-muted-foreground">{role.role}</span>
                      </p>
                      <PermissionSummary permission={role.permission} />
                    </div>
                    {canUpdate ? (
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={m.roles_edit_named({ role: roleLabel(role.role) })}
                        onClick={() => setEditing({ role })}
                      >
                        <PencilIcon aria-hidden />
                      </Button>
                    ) : null}
                    {canDelete ? <DeleteRole role={role} /> : null}
                  </li>
                ))}
              </ul>
            )
          }
        </QueryState>
      </section>
      <section aria-labelledby="built-in-roles-title" className="mt-8">
        <h2 id="built-in-roles-title" className="mb-3 font-semibold">
          {m.roles_built_in_title()}
        </h2>
        <ul className="divide-y rounded-xl border">
          {builtInRoles.map((role) => (
            <li key={role} className="p-4">
              <p className="font-medium">{roleLabel(role)}</p>
              <PermissionSummary permission={builtInRoleStatements[role]} />
            </li>
          ))}
        </ul>
      </section>
      {editing ? <CustomRoleDialog role={editing.role} onClose={() => setEditing(null)} /> : null}
    </div>
  )
}
