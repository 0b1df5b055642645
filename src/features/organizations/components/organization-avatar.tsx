import { useState } from 'react'
import type { OrganizationSummary } from '#/lib/console-session'
import { initialsOf } from '#/lib/session-user'
import { cn } from '#/lib/utils'

/** The organization's logo, or its initials when it has none or the picture does not load. */
export function OrganizationAvatar({
  organization,
  size = 'md',
}: {
  organization: Pick<OrganizationSummary, 'name' | 'logo'>
  size?: 'sm' | 'md'
}) {
  const [broken, setBroken] = useState(false)
  const box = size === 'sm' ? 'size-6 text-[10px]' : 'size-12 text-base'
  if (organization.logo && !broken) {
    return (
      <img
        src={organization.logo}
        alt=""
        className={cn('shrink-0 rounded-md object-cover', box)}
        onError={() => setBroken(true)}
      />
    )
  }
  return (
    <span
      aria-hidden
      className={cn(
        'flex shrink-0 items-center justify-center rounded-md bg-primary/10 font-semibold text-primary',
        box,
      )}
    >
      {initialsOf(organization.name)}
    </span>
  )
}
