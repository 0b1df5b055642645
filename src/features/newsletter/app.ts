import { defineApp } from '#/lib/app-manifest'
import { NewsletterForm } from './components/newsletter-form'

/** The newsletter: the site footer's form, which keeps the addresses of visitors who ask for product news. */
export const app = defineApp({ name: 'newsletter', footerPanels: [NewsletterForm] })
