import { CreditCardIcon } from 'lucide-react'
import { defineLandingApp } from '#/lib/app-manifest'
import { m } from '#/paraglide/messages'
import { Pricing } from './components/pricing'

/** The landing page's plans after the features, what billing is among them, and a question about the prices. */
export const landingApp = defineLandingApp({
  name: 'billing',
  sections: [{ position: 30, component: Pricing }],
  features: [{ icon: CreditCardIcon, title: m.feature_payments_title, body: m.feature_payments_body }],
  questions: [{ question: m.pricing_faq_question, answer: m.pricing_faq_answer }],
})
