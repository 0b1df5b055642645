import { Link } from '@tanstack/react-router'
import { ArrowLeftIcon, RssIcon } from 'lucide-react'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import type { PostKind } from '../config'
import type { PostInfo, PostListInfo } from '../server/posts'
import { postContent } from './post-content'
import { PostMeta } from './post-meta'

const headings: Record<PostKind, { title: () => string; description: () => string }> = {
  blog: { title: m.blog_title, description: m.blog_description },
  changelog: { title: m.changelog_title, description: m.changelog_description },
}

/** `/{lang}/blog` and `/{lang}/changelog`: every post, newest first, with its feeds. */
export function PostIndexScreen({ info }: { info: PostListInfo }) {
  const heading = headings[info.kind]
  const feedBase = localizeHref(`/${info.kind}`)
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <header className="flex flex-wrap items-end justify-between gap-4 border-b pb-6">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">{heading.title()}</h1>
          <p className="mt-2 text-muted-foreground">{heading.description()}</p>
        </div>
        <p className="flex gap-3 text-sm">
          <a className="inline-flex items-center gap-1 hover:underline" href={`${feedBase}/rss.xml`}>
            <RssIcon className="size-4" aria-hidden />
            RSS
          </a>
          <a className="hover:underline" href={`${feedBase}/atom.xml`}>
            Atom
          </a>
        </p>
      </header>
      {info.posts.length === 0 ? (
        <p className="mt-8 text-muted-foreground">{m.blog_empty()}</p>
      ) : (
        <ol className="divide-y">
          {info.posts.map((post) => (
            <li key={post.slug} className="py-6" data-testid="post-entry">
              <h2 className="text-xl font-semibold">
                <Link to={post.url} className="hover:underline">
                  {post.title}
                </Link>
              </h2>
              <div className="mt-1">
                <PostMeta date={post.date} author={post.author} tags={post.tags} />
              </div>
              {post.description ? <p className="mt-2 text-muted-foreground">{post.description}</p> : null}
            </li>
          ))}
        </ol>
      )}
    </main>
  )
}

/** One post: its title, date, author and tags, then its content in the docs' typography. */
export function PostScreen({ info }: { info: Extract<PostInfo, { found: true }> }) {
  const Content = postContent[info.kind]
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <Link
        to={info.kind === 'blog' ? '/blog' : '/changelog'}
        className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeftIcon className="size-4" aria-hidden />
        {headings[info.kind].title()}
      </Link>
      <article className="mt-6">
        <header className="mb-8 border-b pb-6">
          <h1 className="text-3xl font-bold tracking-tight">{info.title}</h1>
          {info.description ? <p className="mt-2 text-lg text-muted-foreground">{info.description}</p> : null}
          <div className="mt-3">
            <PostMeta date={info.date} author={info.author} tags={info.tags} />
          </div>
        </header>
        {Content.useContent(info.path)}
      </article>
    </main>
  )
}
