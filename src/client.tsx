// The browser's entry: TanStack Start's own, plus the URLPattern polyfill where a browser lacks URLPattern.
import { StartClient } from '@tanstack/react-start/client'
import { StrictMode, startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'

// Paraglide reads the language from the address with URLPattern (Baseline 2025); the modules imported above only
// define functions, so the polyfill arrives before the first render reads a message. Awaited here, in the entry,
// rather than in the module Paraglide imports: a top-level await there made nearly every module asynchronous, which
// also kept the bundler from copying small shared chunks into their readers (docs/decisions/030).
if (!('URLPattern' in globalThis)) await import('urlpattern-polyfill')

// The page the server rendered is painted before hydration starts. Hydrating a large tree is one long task, and a
// browser that has the scripts ready when the HTML ends runs them first and paints after: the text people came for
// then appeared only once the page was interactive. A hidden tab gets no frames, so a timer starts it there.
await new Promise((resolve) => {
  requestAnimationFrame(() => setTimeout(resolve, 0))
  setTimeout(resolve, 100)
})

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <StartClient />
    </StrictMode>,
    // React recovers from an error thrown while hydrating by rendering that part again, and its own report names only
    // a code: the error it wraps (its cause) says what broke.
    { onRecoverableError: (error) => console.error(error, error instanceof Error ? error.cause : undefined) },
  )
})
