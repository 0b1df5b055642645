// Billing's rows of the permission matrix (tests/integration/organization-permissions.test.ts), written out by hand
// rather than read from permissions.ts: owners read and manage billing, admins read it, members neither.
export const permissionGrants = {
  everyAction: { billing: ['read', 'manage'] },
  owner: { billing: ['read', 'manage'] },
  admin: { billing: ['read'] },
  member: {},
}
