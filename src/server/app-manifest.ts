/**
 * What an app adds to the server's shared places (docs/decisions/042), declared once in the app's
 * `src/features/<app>/server/app.ts` and read through `src/server/apps.gen.ts`. Whatever loads the app's own code is a
 * function that imports it when first asked, so a server that starts does not load every app.
 */
export interface ServerAppManifest {
  /** The app's folder under src/features/, as `src/apps.ts` lists it. */
  name: string
  /**
   * Public pages that look the same to every visitor (a path with its language, `/en/blog/a-post`): rendered once and
   * kept in the page cache until the next build or site setting.
   */
  publicPages?: RegExp
  /** Sections whose pages come with every release (`blog`): counted as one route label each in the metrics. */
  growingSections?: readonly string[]
  /** Pages for sitemap.xml, without the language (each is listed in every language). */
  sitemapPaths?: () => Promise<string[]>
  /** A section of llms.txt, in Markdown. */
  llmsSection?: (appUrl: string) => Promise<string>
}

export function defineServerApp<const Manifest extends ServerAppManifest>(manifest: Manifest): Manifest {
  return manifest
}
