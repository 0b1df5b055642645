/**
 * What an app adds to the parts of every page that the core draws (docs/decisions/042): declared once in the app's
 * `src/features/<app>/app.ts`, read by the core through `src/apps.gen.ts`. Browser-safe: nothing here reaches a server.
 */
export interface AppManifest {
  /** The app's folder under src/features/, as `src/apps.ts` lists it. */
  name: string
  /** Links in the site footer's Resources column, after Docs: an address without the language, and its words. */
  footerLinks?: readonly { href: string; label: () => string }[]
}

export function defineApp<const Manifest extends AppManifest>(manifest: Manifest): Manifest {
  return manifest
}
