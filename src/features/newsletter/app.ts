import { defineApp } from '#/lib/app-manifest'

/** The newsletter: the site footer's form (footer.ts), which keeps the addresses of visitors who ask for product news. */
export const app = defineApp({ name: 'newsletter' })
