// The browser's entry: TanStack Start's own, plus the URLPattern polyfill where a browser lacks URLPattern.
import { StartClient } from '@tanstack/react-start/client'
import { StrictMode, startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'

// Paraglide reads the language from the address with URLPattern (Baseline 2025); the modules imported above only
// define functions, so the polyfill arrives before the first render reads a message. Awaited here, in the entry,
// rather than in the module Paraglide imports: a top-level await there made nearly every module asynchronous, which
// also kept the bundler from copying small shared chunks into their readers (docs/decisions/030).
if (!('URLPattern' in globalThis)) await import('urlpattern-polyfill')

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <StartClient />
    </StrictMode>,
  )
})
