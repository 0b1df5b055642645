import { defineFooterApp } from '#/lib/app-manifest'
import { NewsletterForm } from './components/newsletter-form'

/** The form in the site footer's last column. */
export const footerApp = defineFooterApp({ name: 'newsletter', panels: [NewsletterForm] })
