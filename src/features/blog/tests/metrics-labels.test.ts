// Posts and changelog entries come with every release: the blog declares both sections as growing, so the metrics
// count each section's pages and feeds under one label rather than a series per post.
import { describe, expect, it } from 'vitest'
import { routeLabelOf } from '#/server/metrics'

describe("the blog's pages in the metrics", () => {
  it('are one label per section for its posts and feeds, and one for each index', () => {
    expect(routeLabelOf('/zh/blog', 200)).toBe('/:locale/blog')
    expect(routeLabelOf('/zh/blog/introducing-hatch', 200)).toBe('/:locale/blog/*')
    expect(routeLabelOf('/en/changelog/rss.xml', 200)).toBe('/:locale/changelog/*')
  })
})
