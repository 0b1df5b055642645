import { isBuiltInRole, parseRoleList } from '#/lib/access-control'
import { getLocale, type Locale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'

const builtInRoleLabels = {
  owner: m.role_owner,
  admin: m.role_admin,
  member: m.role_member,
}

/**
 * A role as people read it: built-in roles translated; a custom role by the name its organization gave it, written
 * as a name beside Owner and Admin ("content-editor" reads "Content editor").
 */
export function roleLabel(role: string, locale?: Locale): string {
  if (isBuiltInRole(role)) return builtInRoleLabels[role]({}, locale ? { locale } : undefined)
  const words = role.replaceAll('-', ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** A member's roles ("admin,editor") as a readable list. */
export function rolesLabel(roles: string, locale?: Locale): string {
  const separator = (locale ?? getLocale()) === 'zh' ? '、' : ', '
  return parseRoleList(roles)
    .map((role) => roleLabel(role, locale))
    .join(separator)
}
