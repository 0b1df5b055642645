import { describe, expect, it, vi } from 'vitest'
import { routeLabelOf } from '#/server/metrics'

// An app whose section grows with every release (as the blog's posts do) declares it in its server manifest; a
// made-up one here, so the rule is tested whichever apps are installed.
vi.mock('#/server/apps.gen', () => ({ serverApps: [{ name: 'notes', growingSections: ['notes'] }] }))

describe('the route a request is counted under', () => {
  it('names the page or endpoint without ids, tokens or the language', () => {
    expect(routeLabelOf('/en/', 200)).toBe('/:locale/')
    expect(routeLabelOf('/zh/docs/deployment', 200)).toBe('/:locale/docs/*')
    expect(routeLabelOf('/en/docs/a/b/c/d/e', 200)).toBe('/:locale/docs/*')
    expect(routeLabelOf('/api/trpc/organizations.members,organizations.myTeams', 200)).toBe('/api/trpc')
    expect(routeLabelOf('/api/auth/sign-in/email', 200)).toBe('/api/auth/sign-in/email')
    expect(routeLabelOf('/api/auth/reset-password/x7Yq2bTz9L0kd3', 302)).toBe('/api/auth/reset-password/:param')
    expect(routeLabelOf('/en/console/users/x7Yq2bTz9L0kd3Wm', 200)).toBe('/:locale/console/users/:param')
    expect(routeLabelOf('/sitemap.xml', 200)).toBe('/sitemap.xml')
  })

  it("counts every page of an app's growing section under one label, and the section's index under its own", () => {
    expect(routeLabelOf('/zh/notes', 200)).toBe('/:locale/notes')
    expect(routeLabelOf('/zh/notes/first-note', 200)).toBe('/:locale/notes/*')
    expect(routeLabelOf('/en/notes/rss.xml', 200)).toBe('/:locale/notes/*')
    expect(routeLabelOf('/en/console/users', 200), 'a section no app declares').toBe('/:locale/console/users')
  })

  it('counts every path nobody serves under one label, so a scanner cannot make new series', () => {
    expect(routeLabelOf('/wp-admin/setup-config.php', 404)).toBe('(not found)')
    expect(routeLabelOf('/en/no-such-page', 404)).toBe('(not found)')
  })

  it('cuts long paths short', () => {
    expect(routeLabelOf('/a/b/c/d/e/f/g', 200)).toBe('/a/b/c/d/*')
  })
})
