import { defineApp } from '#/lib/app-manifest'

/** Notifications: the console's bell, live on every open page, and the emails each person chooses in Account. */
export const app = defineApp({ name: 'notifications' })
