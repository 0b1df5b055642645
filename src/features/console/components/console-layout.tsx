import { Link } from '@tanstack/react-router'
import { UserIcon } from 'lucide-react'
import { Fragment, type ReactNode } from 'react'
import { toast } from 'sonner'
import { LanguageMenu } from '#/components/language-menu'
import { Logo } from '#/components/logo'
import { ThemeMenu } from '#/components/theme-menu'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import type { SessionUser } from '#/lib/session-user'
import { useSiteSettings } from '#/lib/use-site-settings'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { UserMenu } from './user-menu'

async function resendVerification(email: string) {
  const { error } = await authClient.sendVerificationEmail({ email, callbackURL: localizeHref('/verify-email') })
  if (error) toast.error(describeAuthError(error))
  else toast.success(m.auth_verify_resent())
}

/** The console frame: navigation listing only the sections that exist, and the signed-in user's menu. */
export function ConsoleLayout({ user, children }: { user: SessionUser; children: ReactNode }) {
  const { productName } = useSiteSettings()
  return (
    <div className="flex min-h-dvh flex-col md:flex-row">
      <aside className="border-b md:w-60 md:shrink-0 md:border-r md:border-b-0">
        <div className="flex h-16 items-center gap-2 px-4 font-semibold">
          <Link to="/" className="rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
            <Logo productName={productName} markOnly />
          </Link>
          {m.console_nav_label()}
        </div>
        <nav aria-label={m.console_nav_label()} className="flex gap-1 px-2 pb-2 md:flex-col">
          <Link
            to="/console/account"
            className="flex items-center gap-2 rounded-md px-3 py-2 text-sm hover:bg-accent data-[status=active]:bg-accent data-[status=active]:font-medium"
          >
            <UserIcon className="size-4" aria-hidden />
            {m.console_account()}
          </Link>
        </nav>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-16 items-center justify-end gap-1 border-b px-4">
          <LanguageMenu />
          <ThemeMenu />
          <UserMenu user={user} />
        </header>
        {user.isAnonymous ? (
          <div
            role="status"
            data-testid="guest-banner"
            className="flex flex-wrap items-center justify-between gap-2 border-b bg-accent px-4 py-2 text-sm text-accent-foreground sm:px-8"
          >
            {m.guest_banner()}
            <Button asChild size="sm">
              <Link to="/sign-up">{m.guest_create_account()}</Link>
            </Button>
          </div>
        ) : user.emailVerified ? null : (
          <div
            role="status"
            data-testid="verify-email-banner"
            className="flex flex-wrap items-center justify-between gap-2 border-b bg-accent px-4 py-2 text-sm text-accent-foreground sm:px-8"
          >
            {m.auth_verify_banner()}
            <Button variant="outline" size="sm" onClick={() => resendVerification(user.email)}>
              {m.auth_verify_resend()}
            </Button>
          </div>
        )}
        <main id="main" className="flex-1 px-4 py-8 sm:px-8">
          {/* Switching accounts remounts the page, so no form keeps the previous user's values. */}
          <Fragment key={user.id}>{children}</Fragment>
        </main>
      </div>
    </div>
  )
}
