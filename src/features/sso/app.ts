import { defineApp } from '#/lib/app-manifest'

/** Enterprise single sign-on: an organization's own identity provider (SAML or OpenID Connect) for its domain. */
export const app = defineApp({ name: 'sso' })
