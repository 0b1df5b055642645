import { lazy } from 'react'
import { defineConsoleApp } from '#/lib/app-manifest'
import { NotificationBell } from './components/notification-bell'

/** Notifications: the console's bell, live on every open page, and the emails each person chooses in Account. */
export const consoleApp = defineConsoleApp({
  name: 'notifications',
  consoleTopBar: [NotificationBell],
  accountSections: [lazy(() => import('./components/notification-settings-section'))],
})
