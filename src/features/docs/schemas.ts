import { z } from '#/lib/zod'
import { locales } from '#/paraglide/runtime'

export const docsPageRequest = z.object({
  slugs: z.array(z.string().max(200), { error: 'slugs must be a list of strings' }).max(20, 'slugs is too long'),
  lang: z.enum(locales, { error: `lang must be one of: ${locales.join(', ')}` }),
})

export type DocsPageRequest = z.infer<typeof docsPageRequest>

/** "Ask the docs": the longest question the dialog takes and the server answers. */
export const askDocsLimits = { questionMax: 500 } as const
