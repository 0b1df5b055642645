// The import rules of .dependency-cruiser.cjs (run by the lint step) report each kind of forbidden import, and let
// the allowed ones through: a small project written to a temporary folder, checked with the very same rule file.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const repository = path.resolve(import.meta.dirname, '../..')
const folder = mkdtempSync(path.join(tmpdir(), 'hatch-import-rules-'))

/** Each file of the small project, by path, with what it imports. */
const files: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '#/*': ['./src/*'] } } }),
  'src/lib/format.ts': 'export const format = (value: string) => value\n',
  'src/server/db/schema.ts': 'export const contacts = {}\n',
  'src/server/db/database.ts': 'export const getDb = () => ({})\n',
  'src/server/env.ts': 'export type Env = { PORT: number }\nexport const getEnv = () => ({ PORT: 3000 })\n',
  'src/features/contacts/index.ts': "export { ContactCard } from './components/contact-card'\n",
  'src/features/contacts/components/contact-card.tsx':
    "import { format } from '#/lib/format'\nimport type { Env } from '#/server/env'\nexport const ContactCard = (env?: Env) => format(String(env))\n",
  'src/features/contacts/server/contacts-router.ts':
    "import { contacts } from '#/server/db/schema'\nexport const contactsRouter = contacts\n",
  'src/features/contacts/server/index.ts': "export { contactsRouter } from './contacts-router'\n",
  // Allowed: another feature's server code uses contacts through its server entry.
  'src/features/orders/server/order-contacts.ts':
    "import { contactsRouter } from '#/features/contacts/server'\nexport const orderContacts = contactsRouter\n",
  // Allowed: the Better Auth configuration composes a feature's plugin.
  'src/server/auth/auth.ts':
    "import { contactsRouter } from '#/features/contacts/server'\nexport const auth = contactsRouter\n",
  'src/features/orders/index.ts': "export { OrderList } from './components/order-list'\n",
  'src/features/orders/components/order-list.tsx':
    "import { ContactCard } from '#/features/contacts'\nexport const OrderList = () => ContactCard()\n",
  // Allowed: a composition root puts a feature's router together with the others.
  'src/server/trpc/root.ts':
    "import { contactsRouter } from '#/features/contacts/server/contacts-router'\nexport const root = contactsRouter\n",
  'src/routes/contacts.tsx':
    "import { ContactCard } from '#/features/contacts/components/contact-card'\nexport const Route = ContactCard\n",

  // Installed apps: reviews needs shop, ads needs nothing (src/apps.ts and each app's app.ts, read by the rules).
  'src/apps.ts': "export const installedApps = ['shop', 'reviews', 'ads'] as const\n",
  'src/features/shop/app.ts': "export const app = { name: 'shop' }\n",
  'src/features/shop/index.ts': "export const shopName = 'shop'\n",
  'src/features/reviews/app.ts': "export const app = { name: 'reviews', needs: ['shop'] }\n",
  // Allowed: an app imports an app it needs, through its public entry.
  'src/features/reviews/review-list.ts':
    "import { shopName } from '#/features/shop'\nexport const reviewList = shopName\n",
  'src/features/ads/app.ts': "export const app = { name: 'ads' }\n",
  // Allowed: the core reaches apps only through a generated file (outside the rules).
  'src/apps.gen.ts': "import { app } from '#/features/shop/app'\nexport const apps = [app]\n",

  // Forbidden, one per rule:
  'src/features/ads/ad-slot.ts': "import { shopName } from '#/features/shop'\nexport const adSlot = shopName\n",
  'src/features/orders/order-shop.ts':
    "import { shopName } from '#/features/shop'\nexport const orderShop = shopName\n",
  'src/lib/feature-helper.ts': "import { ContactCard } from '#/features/contacts'\nexport const helper = ContactCard\n",
  'src/features/orders/server/order-import.ts':
    "import { contactsRouter } from '#/features/contacts/server/contacts-router'\nexport const orderImport = contactsRouter\n",
  'src/features/orders/order-total.ts':
    "import { ContactCard } from '../contacts/components/contact-card'\nexport const total = ContactCard\n",
  // Two features that need each other, through different files (no single file is in a cycle).
  'src/features/up/index.ts': "export { upLabel } from './up-label'\n",
  'src/features/up/up-label.ts': "export const upLabel = 'up'\n",
  'src/features/up/up-panel.ts': "import { downLabel } from '#/features/down'\nexport const upPanel = downLabel\n",
  'src/features/down/index.ts': "export { downLabel } from './down-label'\n",
  'src/features/down/down-label.ts': "export const downLabel = 'down'\n",
  'src/features/down/down-panel.ts': "import { upLabel } from '#/features/up'\nexport const downPanel = upLabel\n",
  'src/server/maintenance.ts':
    "import { contactsRouter } from '#/features/contacts/server/contacts-router'\nexport const maintenance = contactsRouter\n",
  'src/components/contact-count.tsx':
    "import { getDb } from '#/server/db/database'\nexport const ContactCount = getDb\n",
  'src/routes/orders.tsx': "import { contacts } from '#/server/db/schema'\nexport const Route = contacts\n",
  'src/server/db/contact-schema.ts': 'export const contactTable = {}\n',
  'src/routes/people.tsx':
    "import { contactTable } from '#/server/db/contact-schema'\nexport const Route = contactTable\n",
  // A dynamic import counts like a static one; a type named through import() is erased, so it is allowed.
  'src/lib/lazy-card.ts': "export const lazyCard = () => import('#/features/contacts/components/contact-card')\n",
  'src/components/env-badge.tsx': "export type BadgeEnv = import('#/server/env').Env\nexport const EnvBadge = 1\n",
}

function violations(): string[] {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, file)), { recursive: true })
    writeFileSync(path.join(folder, file), text)
  }
  const run = spawnSync(
    process.execPath,
    [
      path.join(repository, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs'),
      'src',
      '--config',
      path.join(repository, '.dependency-cruiser.cjs'),
      '--output-type',
      'json',
    ],
    { cwd: folder, encoding: 'utf8' },
  )
  const report = JSON.parse(run.stdout) as {
    summary: { violations: { rule: { name: string }; from: string; to: string }[] }
  }
  return report.summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`)
}

describe('import rules', () => {
  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  it('reports every forbidden import, and nothing else', () => {
    expect(violations().sort()).toEqual(
      [
        'shared-code-imports-no-feature: src/lib/feature-helper.ts → src/features/contacts/index.ts',
        'app-imports-only-what-it-needs: src/features/ads/ad-slot.ts → src/features/shop/index.ts',
        'core-imports-no-app: src/features/orders/order-shop.ts → src/features/shop/index.ts',
        'feature-through-public-entry: src/features/orders/order-total.ts → src/features/contacts/components/contact-card.tsx',
        'feature-through-public-entry: src/features/orders/server/order-import.ts → src/features/contacts/server/contacts-router.ts',
        'no-cycle-between-features: src/features/down → src/features/up',
        'no-cycle-between-features: src/features/up → src/features/down',
        'routes-stay-thin: src/routes/people.tsx → src/server/db/contact-schema.ts',
        'shared-code-imports-no-feature: src/lib/lazy-card.ts → src/features/contacts/components/contact-card.tsx',
        'server-imports-features-only-in-roots: src/server/maintenance.ts → src/features/contacts/server/contacts-router.ts',
        'client-code-imports-no-server-code: src/components/contact-count.tsx → src/server/db/database.ts',
        'routes-stay-thin: src/routes/orders.tsx → src/server/db/schema.ts',
      ].sort(),
    )
  })
})
