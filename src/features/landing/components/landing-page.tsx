import { Fragment } from 'react'
import { landingApps } from '#/landing-apps.gen'
import { useSiteSettings } from '#/lib/use-site-settings'
import { Faq } from './faq'
import { Features } from './features'
import { Hero } from './hero'

/** The installed apps' sections (pricing), in their places among the core's. */
const appSections = landingApps.flatMap((app) => app.sections ?? [])

export function LandingPage() {
  const { productName } = useSiteSettings()
  const sections = [
    { position: 10, key: 'hero', element: <Hero productName={productName} /> },
    { position: 20, key: 'features', element: <Features /> },
    ...appSections.map(({ position, component: Section }, index) => ({
      position,
      key: `app-${index}`,
      element: <Section />,
    })),
    { position: 40, key: 'faq', element: <Faq /> },
  ].toSorted((a, b) => a.position - b.position)
  return (
    <main id="main">
      {sections.map(({ key, element }) => (
        <Fragment key={key}>{element}</Fragment>
      ))}
    </main>
  )
}
