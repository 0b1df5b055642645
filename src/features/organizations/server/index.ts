// What the rest of the server may use of organizations (the import rules in .dependency-cruiser.cjs allow nothing
// else): the Better Auth plugin and checks that src/server/auth/auth.ts composes, the personal workspace a new
// account gets, and what deleting an account does to the organizations it owns.
export { accountDeletionOrganizations, deleteAccountWithHandOver } from './account-organizations'
export { recordActivity } from './organization-activity'
export { organizationChecks } from './organization-checks'
export { organizationPlugin } from './organization-plugin'
export { chooseActiveOrganization, moveMemberships } from './personal-organization'
export { joinThroughSso } from './sso-membership'
