import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { LanguageMenu } from '#/components/language-menu'
import { Logo } from '#/components/logo'
import { ThemeMenu } from '#/components/theme-menu'

/** The frame of the sign-in area: a centred card, with the language and theme controls at the top. */
export function AuthLayout({ productName, children }: { productName: string; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="flex h-16 items-center justify-between px-4 sm:px-6">
        <Link to="/" className="rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
          <Logo productName={productName} />
        </Link>
        <div className="flex items-center gap-1">
          <LanguageMenu />
          <ThemeMenu />
        </div>
      </header>
      <main id="main" className="flex flex-1 items-start justify-center px-4 py-10 sm:items-center">
        <div className="w-full max-w-sm rounded-2xl border bg-card p-6 text-card-foreground shadow-sm sm:p-8">
          {children}
        </div>
      </main>
    </div>
  )
}

export function AuthHeading({ title, subtitle }: { title: string; subtitle: string }) {
  return (
    <div className="mb-6">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      {subtitle ? <p className="mt-1 text-sm text-muted-foreground">{subtitle}</p> : null}
    </div>
  )
}
