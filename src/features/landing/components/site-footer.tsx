import { GitBranchIcon } from 'lucide-react'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { useSiteSettings } from '../use-site-settings'
import { Logo } from './logo'

export function SiteFooter() {
  const { productName, sourceRepositoryUrl } = useSiteSettings()
  const linkClass = 'text-muted-foreground hover:text-foreground hover:underline underline-offset-4'
  return (
    <footer className="border-t">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:grid-cols-[2fr_1fr_1fr] sm:px-6">
        <div>
          <Logo productName={productName} />
          <p className="mt-3 max-w-xs text-sm text-muted-foreground">{m.footer_tagline()}</p>
        </div>
        <div>
          <h2 className="text-sm font-semibold">{m.footer_product()}</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <a className={linkClass} href="#pricing">
                {m.nav_pricing()}
              </a>
            </li>
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
      </div>
      <p className="border-t px-4 py-6 text-center text-xs text-muted-foreground">
        {m.footer_rights({ year: String(new Date().getFullYear()), product: productName })}
      </p>
    </footer>
  )
}
