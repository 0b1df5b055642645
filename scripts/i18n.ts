// Compiles the message catalogues (messages/*.json and each installed app's) into typed message functions under
// src/paraglide.
// The compiler's options live here (not in the Vite plugin) because the plugin adds ~25 s to clean builds
// and cannot be used by the CLI-only steps (tests, type checks). See docs/decisions/004-i18n-paraglide.md.
import { compile } from '@inlang/paraglide-js'
import { generateApps } from './generate-apps.ts'

export async function compileMessages() {
  // The catalogues are listed in project.inlang/settings.json, written from the list of installed apps.
  generateApps()
  await compile({
    project: './project.inlang',
    outdir: './src/paraglide',
    strategy: ['url', 'cookie', 'preferredLanguage', 'baseLocale'],
    cookieName: 'lang',
    emitReadme: false,
    emitTsDeclarations: false,
    emitPrettierIgnore: false,
    isServer: "typeof window === 'undefined'",
    // Server routes, server functions and static files are never localized, redirected or rewritten.
    routeStrategies: [
      { match: '/api/:path(.*)?', exclude: true },
      { match: '/_serverFn/:path(.*)?', exclude: true },
      { match: '/assets/:path(.*)?', exclude: true },
      // Files for crawlers and AI assistants cover both languages at one address.
      { match: '/llms.txt', exclude: true },
      { match: '/llms-full.txt', exclude: true },
      { match: '/sitemap.xml', exclude: true },
      { match: '/robots.txt', exclude: true },
      // security.txt (RFC 9116) lives at one fixed address.
      { match: '/.well-known/:path(.*)?', exclude: true },
    ],
    urlPatterns: [
      {
        pattern: '/:path(.*)?',
        localized: [
          ['zh', '/zh/:path(.*)?'],
          ['en', '/en/:path(.*)?'],
        ],
      },
    ],
  })
}

if (import.meta.main) {
  await compileMessages()
  // The inlang SDK's runtime (lix) leaves 30-second timers behind that would keep this process for another 20 s.
  process.exit(0)
}
