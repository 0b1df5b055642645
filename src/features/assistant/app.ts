import { defineApp } from '#/lib/app-manifest'

/** The console's assistant: conversations with the configured model, which can read and change books for its user. */
export const app = defineApp({ name: 'assistant' })
