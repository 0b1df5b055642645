// Each changelog entry is a release, and someone who merges it needs to know what to do beyond `npm install` and a
// restart (docs: Upgrading): every entry, in both languages, has that section, and says something in it.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const folder = path.resolve('src/features/blog/content/changelog')
const headings = { en: '## Upgrading', zh: '## 升级' } as const

/** The text under a level-2 heading, up to the next one; undefined without the heading. */
function sectionUnder(mdx: string, heading: string): string | undefined {
  const lines = mdx.split('\n')
  const start = lines.findIndex((line) => line.trim() === heading)
  if (start === -1) return undefined
  const rest = lines.slice(start + 1)
  const end = rest.findIndex((line) => /^#{1,2}\s/.test(line))
  return (end === -1 ? rest : rest.slice(0, end)).join('\n').trim()
}

const entries = readdirSync(folder).filter((file) => file.endsWith('.mdx'))
const releases = [...new Set(entries.map((file) => file.replace(/(\.zh)?\.mdx$/, '')))].sort()

describe('the changelog', () => {
  it('has releases, each in English and Chinese', () => {
    expect(releases.length).toBeGreaterThan(0)
    const missing = releases.flatMap((release) =>
      [`${release}.mdx`, `${release}.zh.mdx`].filter((file) => !entries.includes(file)),
    )
    expect(missing).toEqual([])
  })

  it('says in each release, in both languages, what an upgrader must do', () => {
    const without: string[] = []
    for (const release of releases) {
      for (const [language, heading] of Object.entries(headings)) {
        const file = `${release}${language === 'en' ? '' : `.${language}`}.mdx`
        if (!entries.includes(file)) continue
        const section = sectionUnder(readFileSync(path.join(folder, file), 'utf8'), heading)
        if (!section) without.push(`${file}: no "${heading}" section with text under it`)
      }
    }
    expect(without).toEqual([])
  })

  it('finds a missing or empty section', () => {
    const post = '---\ntitle: A release\n---\n\n- Something new.\n'
    expect(sectionUnder(post, headings.en)).toBeUndefined()
    expect(sectionUnder(`${post}\n## Upgrading\n\n## Later\n\nText.\n`, headings.en)).toBe('')
    expect(sectionUnder(`${post}\n## 升级\n\n除了 \`npm install\` 和重启之外无需其他操作。\n`, headings.zh)).toContain(
      'npm install',
    )
  })
})
