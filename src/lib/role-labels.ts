import { isBuiltInRole, parseRoleList } from '#/lib/access-control'
import { getLocale, type Locale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'

const builtInRoleLabels = {
  owner: m.role_owner,
  admin: m.role_admin,
  member: m.role_member,
}

/** A role as people read it: built-in roles translated, custom roles by the name their organization gave them. */
export function roleLabel(role: string, locale?: Locale): string {
  return isBuiltInRole(role) ? builtInRoleLabels[role]({}, locale ? { locale } : undefined) : role
}

/** A member's roles ("admin,editor") as a readable list. */
export function rolesLabel(roles: string, locale?: Locale): string {
  const separator = (locale ?? getLocale()) === 'zh' ? '、' : ', '
  return parseRoleList(roles)
    .map((role) => roleLabel(role, locale))
    .join(separator)
}
