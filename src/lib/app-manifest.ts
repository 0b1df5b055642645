import type { LinkProps } from '@tanstack/react-router'
import type { LucideIcon } from 'lucide-react'
import type { ConsoleSession } from './console-session'

/** A link in the console's navigation, the core's or an app's. */
export interface ConsoleNavEntry {
  to: LinkProps['to']
  label: () => string
  icon: LucideIcon
  /** Shown only to those the server would let in. */
  visible?: (session: ConsoleSession) => boolean
  exact?: boolean
  /** Where it goes among its section's links: they are ordered by this number (the core's go in tens). */
  position: number
}

/**
 * What an app adds to the parts of every page that the core draws (docs/decisions/042): declared once in the app's
 * `src/features/<app>/app.ts`, read by the core through `src/apps.gen.ts`. Browser-safe: nothing here reaches a server.
 */
export interface AppManifest {
  /** The app's folder under src/features/, as `src/apps.ts` lists it. */
  name: string
  /** Links in the site footer's Resources column, after Docs: an address without the language, and its words. */
  footerLinks?: readonly { href: string; label: () => string }[]
  /** Links in the console's navigation: its main section, or the organization's. */
  consoleNav?: readonly (ConsoleNavEntry & { section: 'main' | 'organization' })[]
}

export function defineApp<const Manifest extends AppManifest>(manifest: Manifest): Manifest {
  return manifest
}
