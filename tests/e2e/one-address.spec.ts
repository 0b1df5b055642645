import { appAdmin } from './app-admin'
import { expect, test, visit } from './fixtures'

// The e2e server runs without APP_URL, so its public address is http://localhost:PORT (src/server/env.ts); sign-in,
// emailed links and payment returns all lead there, so a visitor who opened 127.0.0.1 is moved over before signing in.
const port = Number(process.env.E2E_PORT ?? 3211)
const publicAddress = `http://localhost:${port}`
const otherAddress = `http://127.0.0.1:${port}`

const words = {
  en: { email: 'Email or username', password: 'Password', signIn: 'Sign in', dashboard: 'Dashboard' },
  zh: { email: '邮箱或用户名', password: '密码', signIn: '登录', dashboard: '仪表盘' },
} as const

for (const lang of ['en', 'zh'] as const) {
  test(`a visitor who opens 127.0.0.1 signs in on the app's one address and stays signed in there (${lang})`, async ({
    page,
  }) => {
    await visit(page, `${otherAddress}/${lang}/`)
    await expect(page, 'the landing page moves to APP_URL, path kept').toHaveURL(`${publicAddress}/${lang}/`)
    await visit(page, `${otherAddress}/${lang}/sign-in?redirect=%2F${lang}%2Fconsole`)
    await expect(page, 'the query goes along').toHaveURL(
      `${publicAddress}/${lang}/sign-in?redirect=%2F${lang}%2Fconsole`,
    )
    await page.getByLabel(words[lang].email, { exact: true }).fill(appAdmin.email)
    await page.getByLabel(words[lang].password, { exact: true }).fill(appAdmin.password)
    await page.getByRole('button', { name: words[lang].signIn, exact: true }).click()
    await expect(page).toHaveURL(`${publicAddress}/${lang}/console`)
    await expect(page.getByRole('heading', { name: words[lang].dashboard, exact: true })).toBeVisible()
    // A link or bookmark to the other address later on still ends signed in, on the same address.
    await visit(page, `${otherAddress}/${lang}/console`)
    await expect(page).toHaveURL(`${publicAddress}/${lang}/console`)
    await expect(page.getByRole('heading', { name: words[lang].dashboard, exact: true })).toBeVisible()
  })
}
