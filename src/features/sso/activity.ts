import { defineActivityActions } from '#/lib/activity-actions'
import { m } from '#/paraglide/messages'

/** What single sign-on records in an organization's activity log, and how each reads. */
export const activityActions = defineActivityActions({
  sso_saved: {
    kind: 'organization',
    sentence: (actor, d) => m.activity_sso_saved({ actor, protocol: d.protocol ?? '', domain: d.domain ?? '' }),
  },
  sso_domain_verified: {
    kind: 'organization',
    sentence: (actor, d) => m.activity_sso_domain_verified({ actor, domain: d.domain ?? '' }),
  },
  sso_required: {
    kind: 'organization',
    sentence: (actor, d) => m.activity_sso_required({ actor, domain: d.domain ?? '' }),
  },
  sso_not_required: {
    kind: 'organization',
    sentence: (actor, d) => m.activity_sso_not_required({ actor, domain: d.domain ?? '' }),
  },
  sso_removed: {
    kind: 'organization',
    sentence: (actor, d) => m.activity_sso_removed({ actor, domain: d.domain ?? '' }),
  },
})
