import { addFeatureMessages } from '#/lib/errors'
import { m } from '#/paraglide/messages'

// The book page's refusals about its files: they ship with that page only. The storage's limit comes written out
// (`size`: "100 MB"), so no byte formatting is needed here.
addFeatureMessages({
  FILE_NOT_FOUND: () => m.error_code_FILE_NOT_FOUND(),
  PLAN_LIMIT_STORAGE: (params) => m.error_code_PLAN_LIMIT_STORAGE({ limit: params.size ?? params.limit ?? '' }),
})
