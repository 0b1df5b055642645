import { defineApp } from '#/lib/app-manifest'
import { m } from '#/paraglide/messages'

/** The blog and the changelog: posts in its content/blog and content/changelog, their pages and feeds. */
export const app = defineApp({
  name: 'blog',
  footerLinks: [
    { href: '/blog', label: m.nav_blog },
    { href: '/changelog', label: m.nav_changelog },
  ],
})
