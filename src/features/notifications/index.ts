// What other features may use of notifications in the browser: the console header's bell. (Account → Notifications
// is composed by its route, so its labels stay out of every other console page's scripts.)
export { NotificationBell } from './components/notification-bell'
