import { defineApp } from '#/lib/app-manifest'

/**
 * The console's assistant: conversations with the configured model, which uses the docs and the installed apps' tools
 * as its user.
 */
export const app = defineApp({ name: 'assistant' })
