import { defineServerApp } from '#/server/app-manifest'

/** The console assistant: its answers are written for one caller, so no cache keeps them. */
export const serverApp = defineServerApp({
  name: 'assistant',
  personalApis: ['assistant'],
})
