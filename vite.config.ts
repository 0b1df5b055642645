import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import { tanstackStart } from '@tanstack/react-start/plugin/vite'
import viteReact from '@vitejs/plugin-react'
import mdx from 'fumadocs-mdx/vite'
import { defineConfig, type Plugin } from 'vite'
import { generateApps } from './scripts/generate-apps.ts'
import { appRoutes } from './src/app-routes.ts'

const urlPatternWhenMissing = fileURLToPath(new URL('./src/lib/urlpattern-when-missing.ts', import.meta.url))
const emptyModule = '\0hatch:empty-module'

/**
 * Paraglide's runtime imports a URLPattern polyfill for everyone. The server gets it where Node lacks URLPattern
 * (before 23.8) through src/lib/urlpattern-when-missing.ts; the browser gets nothing here, and its entry
 * (src/client.tsx) loads the polyfill where missing, so no module but the entry waits on a top-level await.
 */
function urlPatternPolyfillWhereMissing(): Plugin {
  return {
    name: 'hatch:urlpattern-polyfill-where-missing',
    enforce: 'pre',
    resolveId(id) {
      if (id === emptyModule) return emptyModule
      if (id !== '@inlang/paraglide-js/urlpattern-polyfill') return null
      return this.environment.config.consumer === 'client' ? emptyModule : urlPatternWhenMissing
    },
    load(id) {
      return id === emptyModule ? 'export {}' : null
    },
  }
}

/** The commit being built, for Console → System (none outside a git checkout, e.g. a copied folder). */
function commitBeingBuilt(): string | null {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    return commit.trim() || null
  } catch {
    return null
  }
}

// The installed apps' manifests, imported by the core through src/apps.gen.ts and src/server/apps.gen.ts.
generateApps()

export default defineConfig(({ command }) => ({
  define: { __HATCH_COMMIT__: JSON.stringify(command === 'build' ? commitBeingBuilt() : null) },
  resolve: { tsconfigPaths: true },
  server: { port: 3000 },
  // The production server bundles its dependencies: Node then loads a few files instead of ~1,600 modules, each
  // resolved through its package.json, which was most of a cold start (docs/decisions/017). Kept outside: the
  // embedded database (it reads its WebAssembly and data files beside its own code), PostgreSQL's driver (optional
  // native part), Stripe (its app loads it only when configured; an external nobody imports once the app is removed), srvx and prom-client (one copy, shared with the launcher in
  // scripts/, whose metrics protocol it is), pino with pino-pretty (they load their parts by file name at run time),
  // and what OpenTelemetry patches or shares with its SDK when tracing is on: ioredis and the API (scripts/telemetry.ts).
  environments: {
    client: {
      build: {
        rolldownOptions: {
          // Small shared chunks are copied into the chunks that read them (a registry keeps one state per module):
          // every page loads at most 18 scripts instead of up to 61, for about 8% more JavaScript (decision 030).
          preserveEntrySignatures: false,
          output: {
            codeSplitting: {
              experimentalInlineCommonChunks: {
                maxSize: 48 * 1024,
                // Chunks that hold styles stay files: Vite emits a style from every chunk that lists its module.
                exclude: /\.(css|scss|sass|less|styl|stylus|pcss|postcss|sss)(\?|$)/,
              },
              groups: [
                { name: 'app', tags: ['$initial'] },
                // Every icon and React Query hook the start-up chunk does not hold, in one file each rather than a file
                // per icon and per hook: about a third fewer script requests per page for 3 KB more (decision 030).
                { name: 'icons', test: /node_modules[\\/]lucide-react[\\/]/ },
                { name: 'query', test: /node_modules[\\/]@tanstack[\\/]react-query[\\/]/ },
                // The larger shared libraries stay one file each rather than a copy per reading chunk.
                {
                  name: 'radix',
                  test: /node_modules[\\/](@radix-ui|@floating-ui|react-remove-scroll|aria-hidden|react-style-singleton|use-callback-ref|use-sidecar)/,
                },
                { name: 'forms', test: /node_modules[\\/](zod|@tanstack[\\/](react-)?form)/ },
              ],
            },
          },
        },
      },
    },
  },
  ...(command === 'build' && {
    ssr: {
      noExternal: true,
      external: [
        // Loaded when first used (the AWS SDK and sharp's native library cost start-up time otherwise).
        '@aws-sdk/client-s3',
        '@aws-sdk/s3-request-presigner',
        'sharp',
        '@electric-sql/pglite',
        '@opentelemetry/api',
        'ioredis',
        'pg',
        'pino',
        'pino-pretty',
        'prom-client',
        'stripe',
        'srvx',
      ],
    },
  }),
  plugins: [
    urlPatternPolyfillWhereMissing(),
    // Compiles content/docs and the installed apps' docs/ folders at build time (syntax highlighting included) into .source/.
    mdx(),
    tanstackStart({
      // The core's file routes and each installed app's (src/app-routes.ts, src/apps.ts). An object, not the path of
      // src/app-routes.ts: Vite then restarts the development server when either file changes.
      router: { virtualRouteConfig: appRoutes },
      // Server-only code reaching the browser bundle fails the build instead of leaking (docs/decisions/002).
      importProtection: {
        behavior: 'error',
        client: {
          specifiers: [/^@electric-sql\/pglite/, /^pg$/, /^drizzle-orm/, /^node:/],
          files: ['**/src/server/**', '**/src/features/*/server/**', '**/*.server.*'],
        },
      },
    }),
    viteReact(),
    tailwindcss(),
  ],
}))
