import { definePlanApp } from '#/lib/app-manifest'
import { formatFileSize } from '#/lib/file-size'
import { currentIntlLocale, intlLocales } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
import { fileBytesPerPlan, storageBytesPerPlan } from './file-rules'

/** The plans' storage for covers and attachments, and the largest file one upload may be. */
export const planApp = definePlanApp({
  name: 'files',
  limits: [
    {
      name: 'storage',
      perPlan: storageBytesPerPlan,
      unit: 'bytes',
      cardLine: (planId, size) =>
        m.plan_feature_storage({ size, file: formatFileSize(fileBytesPerPlan[planId], currentIntlLocale()) }),
      docsColumn: {
        header: (locale) => m.docs_plans_storage({}, { locale }),
        cell: (planId, size, locale) =>
          m.docs_plans_storage_cell(
            { size, file: formatFileSize(fileBytesPerPlan[planId], intlLocales[locale]) },
            { locale },
          ),
      },
      usage: {
        label: m.billing_usage_storage,
        note: (planId) =>
          m.billing_usage_file_limit({ size: formatFileSize(fileBytesPerPlan[planId], currentIntlLocale()) }),
      },
      reached: m.plan_limit_reached_storage,
      over: m.plan_limit_over_storage,
    },
  ],
})
