import tailwindcss from '@tailwindcss/vite'
import { tanstackStart } from '@tanstack/react-start/plugin/vite'
import viteReact from '@vitejs/plugin-react'
import mdx from 'fumadocs-mdx/vite'
import { defineConfig } from 'vite'

export default defineConfig({
  resolve: { tsconfigPaths: true },
  server: { port: 3000 },
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
})
