import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import { tanstackStart } from '@tanstack/react-start/plugin/vite'
import viteReact from '@vitejs/plugin-react'
import mdx from 'fumadocs-mdx/vite'
import { defineConfig } from 'vite'

const urlPatternWhenMissing = fileURLToPath(new URL('./src/lib/urlpattern-when-missing.ts', import.meta.url))

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

export default defineConfig(({ command }) => ({
  define: { __HATCH_COMMIT__: JSON.stringify(command === 'build' ? commitBeingBuilt() : null) },
  resolve: {
    tsconfigPaths: true,
    alias: [{ find: /^@inlang\/paraglide-js\/urlpattern-polyfill$/, replacement: urlPatternWhenMissing }],
  },
  server: { port: 3000 },
  // The production server bundles its dependencies: Node then loads a few files instead of ~1,600 modules, each
  // resolved through its package.json, which was most of a cold start (docs/decisions/017). Kept outside: the
  // embedded database (it reads its WebAssembly and data files beside its own code), PostgreSQL's driver (optional
  // native part), Stripe (loaded only when configured), srvx and prom-client (one copy, shared with the launcher in
  // scripts/, whose metrics protocol it is), pino with pino-pretty (they load their parts by file name at run time),
  // and what OpenTelemetry patches or shares with its SDK when tracing is on: ioredis and the API (scripts/telemetry.ts).
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: 'app', tags: ['$initial'] },
                // Every icon and React Query hook the start-up chunk does not hold, in one file each rather than a file
                // per icon and per hook: about a third fewer script requests per page for 3 KB more (decision 030).
                { name: 'icons', test: /node_modules[\\/]lucide-react[\\/]/ },
                { name: 'query', test: /node_modules[\\/]@tanstack[\\/]react-query[\\/]/ },
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
    // Compiles content/docs at build time (syntax highlighting included) into .source/.
    mdx(),
    tanstackStart({
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
