import { GitBranchIcon } from 'lucide-react'
import { apps } from '#/apps.gen'
import { Logo } from '#/components/logo'
import { footerApps } from '#/footer-apps.gen'
import { useSiteSettings } from '#/lib/use-site-settings'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { productLinks } from './site-header'

/** What the apps show in the footer's last column, in the order of the installed apps. */
const footerPanels = footerApps.flatMap((app) => app.panels)

export function SiteFooter() {
  const { productName, sourceRepositoryUrl } = useSiteSettings()
  const linkClass = 'text-muted-foreground hover:text-foreground hover:underline underline-offset-4'
  return (
    <footer className="border-t">
      <div
        className={`mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:grid-cols-2 sm:px-6 ${footerPanels.length > 0 ? 'lg:grid-cols-[1.2fr_0.6fr_0.6fr_1.4fr]' : 'lg:grid-cols-[2fr_1fr_1fr]'}`}
      >
        <div>
          <Logo productName={productName} />
          <p className="mt-3 max-w-xs text-sm text-muted-foreground">{m.footer_tagline()}</p>
        </div>
        <div>
          <h2 className="text-sm font-semibold">{m.footer_product()}</h2>
          <ul className="mt-3 space-y-2 text-sm">
            {productLinks().map((link) => (
              <li key={link.href}>
                <a className={linkClass} href={link.href}>
                  {link.label}
                </a>
              </li>
            ))}
            <li>
              <a className={linkClass} href={localizeHref('/sign-in')}>
                {m.nav_sign_in()}
              </a>
            </li>
          </ul>
        </div>
        <div>
          <h2 className="text-sm font-semibold">{m.footer_resources()}</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <a className={linkClass} href={localizeHref('/docs')}>
                {m.nav_docs()}
              </a>
            </li>
            {apps.flatMap((app) =>
              (app.footerLinks ?? []).map((link) => (
                <li key={link.href}>
                  <a className={linkClass} href={localizeHref(link.href)}>
                    {link.label()}
                  </a>
                </li>
              )),
            )}
            <li>
              <a
                className={`${linkClass} inline-flex items-center gap-1.5`}
                href={sourceRepositoryUrl}
                rel="noopener noreferrer"
                target="_blank"
                data-testid="source-repository-link"
              >
                <GitBranchIcon className="size-4" aria-hidden />
                {m.footer_source()}
              </a>
            </li>
          </ul>
        </div>
        {footerPanels.length > 0 ? (
          <div className="space-y-8">
            {footerPanels.map((Panel, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed at build time
              <Panel key={index} />
            ))}
          </div>
        ) : null}
      </div>
      <p className="border-t px-4 py-6 text-center text-xs text-muted-foreground">
        {m.footer_rights({ year: String(new Date().getFullYear()), product: productName })}
      </p>
    </footer>
  )
}
