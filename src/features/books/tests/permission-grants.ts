// The books' rows of the permission matrix (tests/integration/organization-permissions.test.ts), written out by hand
// rather than read from permissions.ts: owners and admins do anything with books, members add and read them and
// change only their own.
export const permissionGrants = {
  everyAction: { book: ['create', 'read', 'update', 'delete', 'update-own', 'delete-own'] },
  owner: { book: ['create', 'read', 'update', 'delete', 'update-own', 'delete-own'] },
  admin: { book: ['create', 'read', 'update', 'delete', 'update-own', 'delete-own'] },
  member: { book: ['create', 'read', 'update-own', 'delete-own'] },
}
