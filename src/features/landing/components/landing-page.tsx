import { useSiteSettings } from '#/lib/use-site-settings'
import { Faq } from './faq'
import { Features } from './features'
import { Hero } from './hero'
import { Pricing } from './pricing'

export function LandingPage() {
  const { productName } = useSiteSettings()
  return (
    <main id="main">
      <Hero productName={productName} />
      <Features />
      <Pricing />
      <Faq />
    </main>
  )
}
