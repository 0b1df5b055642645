// The webhooks' rows of the permission matrix (tests/integration/organization-permissions.test.ts), written out by hand
// rather than read from permissions.ts: owners and admins read and manage endpoints, members neither.
export const permissionGrants = {
  everyAction: { webhook: ['read', 'manage'] },
  owner: { webhook: ['read', 'manage'] },
  admin: { webhook: ['read', 'manage'] },
  member: {},
}
