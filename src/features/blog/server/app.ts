import { defineServerApp } from '#/server/app-manifest'

export const serverApp = defineServerApp({
  name: 'blog',
  // Posts, entries, both indexes and their feeds change only with a build.
  publicPages: /^\/(en|zh)\/(blog|changelog)(\/[a-z0-9-]+|\/rss\.xml|\/atom\.xml)?$/,
  growingSections: ['blog', 'changelog'],
  sitemapPaths: async () => (await import('./posts')).postPaths(),
  llmsSection: async (appUrl) => (await import('./posts')).postsLlmsSection(appUrl),
})
