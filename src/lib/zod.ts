import { z } from 'zod'

// The browser's script policy forbids eval. Zod probes for it when a module defines an object schema (to compile
// faster validators), and Chromium reports the refused probe as a policy violation, which Lighthouse's best practices
// count. Every module takes zod from here, so this runs before any schema is defined; the server keeps compiling.
if (typeof document !== 'undefined') z.config({ jitless: true })

export * from 'zod'
