import { useState } from 'react'
import type { OrganizationSummary } from '#/lib/console-session'
import { initialsOf } from '#/lib/session-user'
import { cn } from '#/lib/utils'
import { type AvatarSize, avatarBoxes } from './person-avatar'

/** The organization's logo, or its initials when it has none or the picture does not load (square, as logos are). */
export function OrganizationAvatar({
  organization,
  size = 'lg',
}: {
  organization: Pick<OrganizationSummary, 'name' | 'logo'>
  size?: AvatarSize
}) {
  const [broken, setBroken] = useState<string | null>(null)
  const box = avatarBoxes[size]
  if (organization.logo && broken !== organization.logo) {
    const logo = organization.logo
    return (
      <img
        src={logo}
        alt=""
        className={cn('shrink-0 rounded-md bg-secondary object-cover', box)}
        onError={() => setBroken(logo)}
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
