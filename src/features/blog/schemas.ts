import { z } from '#/lib/zod'
import { locales } from '#/paraglide/runtime'
import { postKinds } from './config'

export const postListRequest = z.object({ kind: z.enum(postKinds), lang: z.enum(locales) })
export type PostListRequest = z.infer<typeof postListRequest>

export const postRequest = postListRequest.extend({ slug: z.string().regex(/^[a-z0-9-]{1,100}$/) })
export type PostRequest = z.infer<typeof postRequest>
