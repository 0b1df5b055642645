import type { ReactNode } from 'react'

/** A titled card of a settings page (Account, Organization). */
export function SettingsSection({
  id,
  title,
  subtitle,
  children,
}: {
  id: string
  title: string
  subtitle?: string
  children: ReactNode
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="mt-6 rounded-xl border p-4 sm:p-6">
      <h2 id={`${id}-title`} className="font-semibold">
        {title}
      </h2>
      {subtitle ? <p className="mt-1 text-sm text-muted-foreground">{subtitle}</p> : null}
      {children}
    </section>
  )
}
