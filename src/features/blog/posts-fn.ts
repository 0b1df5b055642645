import { createServerFn } from '@tanstack/react-start'
import type { PostListRequest, PostRequest } from './schemas'
import { postInfo, postListInfo } from './server/posts'

/** An index of posts (`{ kind, lang }`); GET, so the page is the same for everyone and cached with the others. */
export const fetchPostList = createServerFn({ method: 'GET' })
  .validator((input: PostListRequest) => input)
  .handler(({ data }) => postListInfo(data))

/** One post (`{ kind, slug, lang }`), or not found. */
export const fetchPost = createServerFn({ method: 'GET' })
  .validator((input: PostRequest) => input)
  .handler(({ data }) => postInfo(data))
