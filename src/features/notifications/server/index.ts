// What other features may use of notifications (the import rules in .dependency-cruiser.cjs allow nothing else):
// telling people something. It imports nothing of tRPC or auth, so the Better Auth configuration (which composes the
// organizations feature, a notifier) loads it without an import cycle.
export { membersWithRoles, type Notice, notify, rememberLanguage } from './notify'
