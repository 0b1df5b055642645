import { Link, useMatches } from '@tanstack/react-router'
import { ChevronRightIcon, MenuIcon } from 'lucide-react'
import { Fragment, type ReactNode, useState } from 'react'
import { toast } from 'sonner'
import { LanguageMenu } from '#/components/language-menu'
import { Logo } from '#/components/logo'
import { ThemeMenu } from '#/components/theme-menu'
import { Button } from '#/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from '#/components/ui/dialog'
import { consoleApps } from '#/console-apps.gen'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { type ConsoleSession, ConsoleSessionProvider } from '#/lib/console-session'
import { useSiteSettings } from '#/lib/use-site-settings'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { ConsoleNav } from './console-nav'
import { UserMenu } from './user-menu'

/** What the installed apps show in the top bar (their manifests' `consoleTopBar`: the notification bell). */
const topBarItems = consoleApps.flatMap((app) => app.consoleTopBar ?? [])

async function resendVerification(email: string) {
  const { error } = await authClient.sendVerificationEmail({ email, callbackURL: localizeHref('/verify-email') })
  if (error) toast.error(describeAuthError(error))
  else toast.success(m.auth_verify_resent())
}

/** Where the page sits in the console, from each matched route's `staticData.crumb`. */
function Breadcrumbs() {
  const crumbs = useMatches({
    select: (matches) =>
      matches
        .filter((match) => match.staticData.crumb)
        .map((match) => ({ id: match.id, pathname: match.pathname, label: match.staticData.crumb?.() ?? '' })),
  })
  if (crumbs.length < 2) return null
  return (
    <nav aria-label={m.console_breadcrumbs()} className="mb-4 text-sm text-muted-foreground">
      <ol className="flex flex-wrap items-center gap-1">
        {crumbs.map((crumb, index) => (
          <Fragment key={crumb.id}>
            {index > 0 ? <ChevronRightIcon className="size-3.5" aria-hidden /> : null}
            <li>
              {index === crumbs.length - 1 ? (
                <span aria-current="page" className="text-foreground">
                  {crumb.label}
                </span>
              ) : (
                <Link to={crumb.pathname} className="hover:text-foreground hover:underline">
                  {crumb.label}
                </Link>
              )}
            </li>
          </Fragment>
        ))}
      </ol>
    </nav>
  )
}

/**
 * The console frame: the sections the user may open (a sidebar on wide screens, a drawer on phones), the organization
 * switcher and the user's menu in the header, breadcrumbs above the page.
 */
export function ConsoleLayout({
  session,
  switcher,
  children,
}: {
  session: ConsoleSession
  /** The organization switcher, composed by the route (it belongs to the organizations area). */
  switcher: ReactNode
  children: ReactNode
}) {
  const { productName } = useSiteSettings()
  const [drawerOpen, setDrawerOpen] = useState(false)
  const { user } = session
  const home = (
    <Link
      to="/"
      className="flex items-center gap-2 rounded-md font-semibold outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
    >
      <Logo productName={productName} markOnly />
      {m.console_nav_label()}
    </Link>
  )
  return (
    <ConsoleSessionProvider session={session}>
      <div className="flex min-h-dvh">
        <aside className="hidden w-64 shrink-0 border-r md:block">
          <div className="sticky top-0 grid max-h-dvh gap-4 overflow-y-auto p-3">
            <div className="flex h-10 items-center px-2">{home}</div>
            <ConsoleNav session={session} />
          </div>
        </aside>
        <div className="flex min-w-0 flex-1 flex-col">
          <header className="flex h-14 items-center gap-1 border-b px-2 sm:px-4">
            <Dialog open={drawerOpen} onOpenChange={setDrawerOpen}>
              {/* A trigger, so closing the drawer gives the focus back to this button. */}
              <DialogTrigger asChild>
                <Button variant="ghost" size="icon" className="md:hidden" aria-label={m.console_open_menu()}>
                  <MenuIcon aria-hidden />
                </Button>
              </DialogTrigger>
              <DialogContent side="left" aria-describedby={undefined}>
                <DialogTitle className="flex h-8 items-center">{home}</DialogTitle>
                <DialogDescription className="sr-only">{m.console_nav_label()}</DialogDescription>
                <ConsoleNav session={session} onNavigate={() => setDrawerOpen(false)} />
                <div className="flex gap-1 border-t pt-3 sm:hidden">
                  <LanguageMenu />
                  <ThemeMenu />
                </div>
              </DialogContent>
            </Dialog>
            <div className="min-w-0 flex-1">{switcher}</div>
            <div className="flex shrink-0 items-center">
              <div className="hidden sm:flex">
                <LanguageMenu />
                <ThemeMenu />
              </div>
              {topBarItems.map((Item, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed when the app is built
                <Item key={index} />
              ))}
              <UserMenu user={user} />
            </div>
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
          <main id="main" className="flex-1 px-4 py-6 sm:px-8">
            <Breadcrumbs />
            {/* Switching accounts or organizations remounts the page, so no form keeps the previous one's values. */}
            <Fragment key={`${user.id}:${session.organization.id}`}>{children}</Fragment>
          </main>
        </div>
      </div>
    </ConsoleSessionProvider>
  )
}
