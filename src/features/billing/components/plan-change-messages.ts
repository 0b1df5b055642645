import { appPlanLimits, planTooSmallCode } from '#/lib/app-plan-limits'
import { addFeatureMessages } from '#/lib/errors'

// A plan change refused because the organization would be over an app's limit (its plans.ts `downgrade`): the words
// come with the limit, and ship with the forms that change plans.
addFeatureMessages(
  Object.fromEntries(
    appPlanLimits.flatMap((limit) =>
      limit.downgrade
        ? [
            [
              planTooSmallCode(limit.name),
              (params: Record<string, string>) =>
                limit.downgrade?.refused({ limit: params.limit ?? '', count: params.count ?? '' }) ?? '',
            ],
          ]
        : [],
    ),
  ),
)
