import { Link } from '@tanstack/react-router'
import { MenuIcon } from 'lucide-react'
import { useEffect, useState } from 'react'
import { apps } from '#/apps.gen'
import { LanguageMenu } from '#/components/language-menu'
import { Logo } from '#/components/logo'
import { MenuButton } from '#/components/menu-button'
import { ThemeMenu } from '#/components/theme-menu'
import { Button } from '#/components/ui/button'
import { useSiteSettings } from '#/lib/use-site-settings'
import { cn } from '#/lib/utils'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { useSignedIn } from './use-signed-in'

const transparentUntilPx = 10

function useScrolledPast(threshold: number) {
  const [scrolled, setScrolled] = useState(false)
  useEffect(() => {
    const update = () => setScrolled(window.scrollY >= threshold)
    update()
    window.addEventListener('scroll', update, { passive: true })
    return () => window.removeEventListener('scroll', update)
  }, [threshold])
  return scrolled
}

/** The installed apps' links for the header and the footer's Product column (Pricing), with the language. */
export function productLinks(): { label: string; href: string }[] {
  return apps.flatMap((app) =>
    (app.productLinks ?? []).map((link) => ({
      label: link.label(),
      href: `${localizeHref(link.href)}${link.hash ? `#${link.hash}` : ''}`,
    })),
  )
}

export function SiteHeader() {
  const { productName } = useSiteSettings()
  const scrolled = useScrolledPast(transparentUntilPx)
  const signedIn = useSignedIn()
  // Docs and sign-in are separate areas of the app, so they are plain links with the locale prefix. The header also
  // frames the apps' pages (my-orders, checkout) and the error pages: a link to a section of the landing page
  // (Pricing) names the page, not a bare fragment.
  const links = [{ label: m.nav_docs(), href: localizeHref('/docs') }, ...productLinks()]
  return (
    <header
      data-scrolled={scrolled}
      className={cn(
        'sticky top-0 z-40 w-full border-b transition-colors duration-200',
        scrolled ? 'border-border bg-background/85 backdrop-blur' : 'border-transparent bg-transparent',
      )}
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4 sm:px-6">
        <Link to="/" className="rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
          <Logo productName={productName} />
        </Link>
        <nav aria-label={m.nav_main()} className="ml-6 hidden items-center gap-1 md:flex">
          {links.map((link) => (
            <Button key={link.href} variant="ghost" size="sm" asChild>
              <a href={link.href}>{link.label}</a>
            </Button>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-1">
          <LanguageMenu />
          <ThemeMenu />
          {signedIn ? (
            <Button size="sm" asChild className="ml-1">
              <a href={localizeHref('/console')}>{m.nav_console()}</a>
            </Button>
          ) : (
            <Button size="sm" asChild className="ml-1">
              <a href={localizeHref('/sign-in')}>{m.nav_sign_in()}</a>
            </Button>
          )}
          {/* Focus must not jump back to the trigger, or the page scrolls away from the chosen section. */}
          <MenuButton
            align="end"
            className="min-w-40"
            onCloseAutoFocus={(event) => event.preventDefault()}
            trigger={
              <Button variant="ghost" size="icon" className="md:hidden" aria-label={m.nav_menu()}>
                <MenuIcon aria-hidden />
              </Button>
            }
          >
            {({ DropdownMenuItem }) =>
              links.map((link) => (
                <DropdownMenuItem key={link.href} asChild>
                  <a href={link.href}>{link.label}</a>
                </DropdownMenuItem>
              ))
            }
          </MenuButton>
        </div>
      </div>
    </header>
  )
}
