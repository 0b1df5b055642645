import { UserRoundIcon } from 'lucide-react'
import { useState } from 'react'
import { initialsOf } from '#/lib/session-user'
import { cn } from '#/lib/utils'

/** The sizes every person's and organization's picture comes in, so a list, a menu and a page read alike. */
export const avatarBoxes = {
  xs: 'size-5 text-[9px]',
  sm: 'size-6 text-[10px]',
  md: 'size-8 text-xs',
  lg: 'size-14 text-lg',
} as const

export type AvatarSize = keyof typeof avatarBoxes

/**
 * A person's picture, or their initials when they have none or it does not load; a guest gets a silhouette, as
 * their made-up name means nothing. Decorative by default: the name is always written beside it.
 */
export function PersonAvatar({
  person,
  size = 'md',
  alt = '',
  testId,
}: {
  person: { name: string; image?: string | null; isAnonymous?: boolean }
  size?: AvatarSize
  alt?: string
  testId?: string
}) {
  const [broken, setBroken] = useState<string | null>(null)
  const box = avatarBoxes[size]
  if (person.image && !person.isAnonymous && broken !== person.image) {
    const image = person.image
    return (
      <img
        src={image}
        alt={alt}
        // A picture from a sign-in provider (GitHub, Google) is not told which page shows it.
        referrerPolicy="no-referrer"
        loading="lazy"
        className={cn('shrink-0 rounded-full bg-secondary object-cover', box)}
        onError={() => setBroken(image)}
        data-testid={testId}
      />
    )
  }
  return (
    <span
      aria-hidden
      className={cn(
        'flex shrink-0 items-center justify-center rounded-full bg-secondary font-semibold text-secondary-foreground',
        box,
      )}
    >
      {person.isAnonymous ? <UserRoundIcon aria-hidden className="size-[60%]" /> : initialsOf(person.name)}
    </span>
  )
}
