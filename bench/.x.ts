import { chromium } from '@playwright/test'
import { chromiumArgs, chromiumPath } from '../scripts/chromium.ts'

const base = 'http://localhost:3105'
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
const errors: string[] = []
page.on('console', (message) => {
  if (message.type() === 'error') errors.push(message.text())
})
for (const [name, path] of [
  ['blog', '/blog'],
  ['post', '/blog/introducing-hatch'],
  ['changelog', '/changelog'],
  ['entry', '/changelog/billing'],
] as const) {
  for (const lang of ['en', 'zh'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme })
      await page.goto(`${base}/${lang}${path}`)
      await page.evaluate((t) => localStorage.setItem('theme', t), theme)
      await page.reload()
      await page.waitForTimeout(700)
      await page.screenshot({ path: `/tmp/shots/${name}-${lang}-${theme}.png`, fullPage: true })
    }
  }
}
await page.setViewportSize({ width: 360, height: 800 })
await page.goto(`${base}/zh/blog/introducing-hatch`)
await page.waitForTimeout(700)
await page.screenshot({ path: '/tmp/shots/post-phone.png', fullPage: true })
console.log(errors)
await browser.close()
