import { signInAsAppAdmin } from './accounts'
import { expect, test, visit } from './fixtures'

test.describe('System', () => {
  for (const { lang, words } of [
    {
      lang: 'en',
      words: {
        nav: 'System',
        heading: 'System',
        jobs: 'Background jobs',
        sent: /Sent: \d/,
        noneFailed: 'No job has failed.',
        thisOne: '(this one)',
        kept: 'Kept emails',
        keptNone: 'No email is kept.',
        backupSchedule: /20 3 \* \* \* \(UTC\) to \/.+\/backups/,
      },
    },
    {
      lang: 'zh',
      words: {
        nav: '系统',
        heading: '系统',
        jobs: '后台任务',
        sent: /已发送：\d/,
        noneFailed: '没有失败的任务。',
        thisOne: '（当前这台）',
        kept: '保留的邮件',
        keptNone: '没有保留的邮件。',
        backupSchedule: /20 3 \* \* \*（UTC），保存到 \/.+\/backups/,
      },
    },
  ] as const) {
    test(`(${lang}) an app admin sees the server, the job queues and the email outbox`, async ({ page }) => {
      await signInAsAppAdmin(page, lang)
      await visit(page, `/${lang}/console`)
      await page.getByRole('navigation').getByRole('link', { name: words.nav }).first().click()
      await expect(page).toHaveURL(new RegExp(`/${lang}/console/system$`))
      await expect(page.getByRole('heading', { level: 1, name: words.heading })).toBeVisible()
      await expect(page.getByTestId('system-server')).toContainText(process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite')
      await expect(page.getByTestId('system-server')).toContainText(/\d+\.\d+\.\d+/)
      // The daily backup's schedule and where it goes; none has run on a server this new.
      await expect(page.getByTestId('system-server')).toContainText(words.backupSchedule)
      // The one end-to-end server reports itself, with its version.
      await expect(page.getByTestId('system-servers').getByRole('listitem')).toHaveCount(1)
      await expect(page.getByTestId('system-servers')).toContainText(words.thisOne)
      await expect(page.getByRole('heading', { name: words.jobs })).toBeVisible()
      // Every server runs the queue: each job's row is there, email delivery first among them.
      const queues = page.getByTestId('system-queues')
      for (const job of ['email-delivery', 'email-sweep', 'maintenance', 'backup']) {
        await expect(queues).toContainText(job)
      }
      // The end-to-end server sends through a real SMTP server: the admin's own sign-up emails were delivered.
      await expect(page.getByTestId('system-outbox-counts')).toContainText(words.sent)
      await expect(page.getByText(words.noneFailed)).toBeVisible()
      // With SMTP nothing is kept (tests/e2e/kept-emails.spec.ts reads kept emails on a server without it).
      await expect(page.getByRole('region', { name: words.kept })).toContainText(words.keptNone)
    })
  }
})
