// The smoke test of a kit (scripts/minimal-kit.ts runs it on the minimal kit, every optional app removed, and on the
// full kit for its figures): sign up, create an organization, open every console page its navigation offers and the
// docs, in each language; no link in a header, footer or navigation answers 404, and nothing the kit shows or lists
// (links, sitemap, llms.txt) leads to a route of a removed app. MINIMAL_KIT_REMOVED_ROUTES holds those routes' paths
// (a JSON array such as ["/blog", "/console/assistant", "/docs/webhooks"]), worked out from the removed apps' routes
// and docs folders.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { APIResponse, Page, Response } from '@playwright/test'
import { landInConsole, newAccount, signInAsAppAdmin, uniqueId } from '../e2e/accounts'
import { expect, test, visit } from '../e2e/fixtures'

const projectDir = path.resolve(import.meta.dirname, '../..')
const readJson = <T>(file: string): T => JSON.parse(readFileSync(path.join(projectDir, file), 'utf8')) as T
const { locales } = readJson<{ locales: string[] }>('project.inlang/settings.json')
const messages = Object.fromEntries(
  locales.map((locale) => [locale, readJson<Record<string, string>>(`messages/${locale}.json`)]),
)
/** A message's text in a language, read from the same files the app is built from. */
const t = (locale: string, key: string): string => {
  const text = messages[locale]?.[key]
  if (text === undefined) throw new Error(`messages/${locale}.json has no ${key}`)
  return text
}

const removedRoutes: string[] = JSON.parse(process.env.MINIMAL_KIT_REMOVED_ROUTES ?? '[]')
const localePrefix = new RegExp(`^/(${locales.join('|')})(?=/|$)`)

/** The route of a removed app a path leads to (its language prefix and a `.md` or feed suffix aside), if any. */
function removedRouteOf(pathname: string): string | undefined {
  const route = pathname.replace(localePrefix, '') || '/'
  return removedRoutes.find(
    (removed) => route === removed || route.startsWith(`${removed}/`) || route.startsWith(`${removed}.`),
  )
}

/** Links gathered from the pages visited, by the page they were found on, for the 404 check at the end. */
const navigationLinks = new Map<string, string>()

/** Every same-origin link of the page: none may lead to a removed app; those in its navigation are kept for later. */
async function checkLinksOf(page: Page) {
  const origin = new URL(page.url()).origin
  const links = await page.locator('a[href]').evaluateAll((anchors) =>
    anchors.map((anchor) => ({
      href: (anchor as HTMLAnchorElement).href,
      inNavigation: anchor.closest('header, footer, nav') !== null,
    })),
  )
  for (const link of links) {
    const url = new URL(link.href)
    if (url.origin !== origin) continue
    expect(removedRouteOf(url.pathname), `${page.url()} links to ${url.pathname}`).toBeUndefined()
    url.hash = ''
    if (link.inNavigation && !navigationLinks.has(url.href)) navigationLinks.set(url.href, page.url())
  }
}

/** A page's script policy: present, its own scripts only (by nonce or hash), never framed. */
function checkScriptPolicy(response: Response | APIResponse | null, what: string) {
  const policy = response?.headers()['content-security-policy'] ?? ''
  expect(policy, `${what} has a script policy`).toMatch(/script-src 'self'( '(nonce|sha256)-[^']+')+/)
  expect(policy, `${what} may not be framed`).toContain("frame-ancestors 'none'")
}

async function open(page: Page, pathname: string) {
  const response = await visit(page, pathname)
  expect(response?.status(), pathname).toBeLessThan(400)
  checkScriptPolicy(response, pathname)
  await checkLinksOf(page)
}

/** Opens each console page the navigation offers, in the order it lists them. */
async function walkConsole(page: Page, locale: string) {
  await open(page, `/${locale}/console`)
  const nav = page.getByRole('navigation', { name: t(locale, 'console_nav_label') }).first()
  await expect(nav).toBeVisible()
  const pages = await nav
    .locator('a[href]')
    .evaluateAll((anchors) => anchors.map((anchor) => new URL((anchor as HTMLAnchorElement).href).pathname))
  expect(pages.length, 'the console navigation lists pages').toBeGreaterThan(1)
  for (const pathname of new Set(pages)) await open(page, pathname)
}

test.describe.configure({ mode: 'parallel' })
test.beforeEach(() => navigationLinks.clear())

for (const locale of locales) {
  test(`${locale}: sign up, create an organization, open every console page and the docs`, async ({ page }) => {
    test.slow()
    await open(page, `/${locale}/`)
    const account = newAccount()
    await open(page, `/${locale}/sign-up`)
    await page.getByLabel(t(locale, 'auth_name_label'), { exact: true }).fill(account.name)
    await page.getByLabel(t(locale, 'auth_email_label'), { exact: true }).fill(account.email)
    await page.getByLabel(t(locale, 'auth_password_label'), { exact: true }).fill(account.password)
    await page.getByRole('button', { name: t(locale, 'auth_sign_up') }).click()
    await landInConsole(page, locale as 'en' | 'zh')

    const organization = `Smoke ${uniqueId()}`
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await page.getByTestId('organization-switcher').click()
    await page.getByRole('menuitem', { name: t(locale, 'org_create') }).click()
    const form = page.getByRole('form', { name: t(locale, 'org_create') })
    await form.getByLabel(t(locale, 'org_name_label'), { exact: true }).fill(organization)
    await expect(form.getByLabel(t(locale, 'org_slug_label'))).not.toHaveValue('')
    await form.getByRole('button', { name: t(locale, 'org_create_submit') }).click()
    await expect(page.getByTestId('organization-switcher')).toContainText(organization)

    await walkConsole(page, locale)
    await open(page, `/${locale}/docs`)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await checkNavigationLinks(page)
  })
}

test("the app admin's console: every page its navigation offers", async ({ page }) => {
  test.slow()
  const [locale = 'en'] = locales
  await signInAsAppAdmin(page, locale as 'en' | 'zh')
  await walkConsole(page, locale)
  await checkNavigationLinks(page)
})

/** No link gathered from a header, footer or navigation answers 404 (or fails). */
async function checkNavigationLinks(page: Page) {
  for (const [link, foundOn] of navigationLinks) {
    const response = await page.request.get(link)
    expect(response.status(), `${link} (linked from ${foundOn})`).not.toBe(404)
    expect(response.status(), `${link} (linked from ${foundOn})`).toBeLessThan(500)
  }
}

test('the sitemap and llms.txt list pages that answer, none of a removed app; every page has a script policy', async ({
  request,
}) => {
  const sitemap = await request.get('/sitemap.xml')
  expect(sitemap.status()).toBe(200)
  const listed = [...(await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1] ?? '')
  expect(listed.length, 'the sitemap lists pages').toBeGreaterThan(0)

  const llms = await request.get('/llms.txt')
  expect(llms.status()).toBe(200)
  const llmsText = await llms.text()
  const linked = [...llmsText.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '')
  expect(linked.length, 'llms.txt links pages').toBeGreaterThan(0)

  for (const link of new Set([...listed, ...linked])) {
    const url = new URL(link, sitemap.url())
    expect(removedRouteOf(url.pathname), `${url.pathname} is listed`).toBeUndefined()
    if (url.origin !== new URL(sitemap.url()).origin) continue
    const response = await request.get(url.href)
    expect(response.status(), `${url.href} (listed)`).toBe(200)
    if ((response.headers()['content-type'] ?? '').startsWith('text/html')) checkScriptPolicy(response, url.pathname)
  }
  for (const removed of removedRoutes) {
    expect(llmsText, `llms.txt names ${removed}`).not.toMatch(new RegExp(`/${removed.slice(1)}(?=[/.)\\s]|$)`))
  }
})
