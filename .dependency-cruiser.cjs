// The import rules of docs/architecture, checked by `npm run lint` (dependency-cruiser; docs/decisions/029).
// Layers: routes → features → components → lib; server code in src/server and each feature's server/ folder.
// tests/unit/import-rules.test.ts proves each rule reports a file that breaks it.

const { existsSync } = require('node:fs')
const { appNeeds, installedAppNames } = require('./scripts/installed-apps.cjs')

/**
 * The installed apps (src/apps.ts; docs/decisions/042), read from the project being checked: an app imports another
 * only when its app.ts says it needs it, and the core none (it reads their manifests through generated files, which
 * are outside these rules). So the rules below are generated from the apps' declarations whenever the linter runs.
 */
const project = process.cwd()
const apps = existsSync(`${project}/src/apps.ts`) ? installedAppNames(project) : []
const anyApp = `^src/features/(${apps.join('|')})/`
const appRules = [
  ...apps.flatMap((app) => {
    const needs = appNeeds(project, app)
    const others = apps.filter((other) => other !== app && !needs.includes(other))
    if (others.length === 0) return []
    return [
      {
        name: 'app-imports-only-what-it-needs',
        comment: `The ${app} app imports another app only when its app.ts names it in \`needs\` (${needs.join(', ') || 'none'}).`,
        severity: 'error',
        from: { path: `^src/features/${app}/` },
        to: { path: `^src/features/(${others.join('|')})/` },
      },
    ]
  }),
  ...(apps.length === 0
    ? []
    : [
        {
          name: 'core-imports-no-app',
          comment:
            'The core works without any app: it reaches the installed ones only through the files generated from ' +
            'src/apps.ts (their manifests), so removing one edits no shared file.',
          severity: 'error',
          from: { path: '^src/', pathNot: anyApp },
          to: { path: anyApp },
        },
      ]),
]

/**
 * The only files in src/server that may import features: where every feature's router and tasks are put together, and
 * the Better Auth configuration, which composes the organizations feature's plugin and hooks.
 */
const compositionRoots = [
  // Generated from the list of installed apps (scripts/generate-apps.ts).
  '^src/server/[^/]+[.]gen[.]ts$',
  '^src/server/trpc/[^/]+[.]gen[.]ts$',
  '^src/server/trpc/root[.]ts$',
  '^src/server/auth/auth[.]ts$',
]

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...appRules,
    {
      name: 'shared-code-imports-no-feature',
      comment:
        'src/lib and src/components are shared by every feature, so they know none: move the code into lib, or ' +
        'into the feature that uses it.',
      severity: 'error',
      from: { path: '^src/(lib|components)/' },
      to: { path: '^src/features/' },
    },
    {
      name: 'feature-through-public-entry',
      comment:
        "A feature uses another feature only through that feature's public entries, index.ts for what the browser may " +
        'use and server/index.ts for the server: export what is needed there, or move shared code to lib or components.',
      severity: 'error',
      // An app's route files are routes (src/app-routes.ts mounts them beside src/routes), and compose as they do. A
      // schema refers to the tables of an app it needs by a relative path (drizzle-kit reads it without the aliases).
      from: { path: '^src/features/([^/]+)/', pathNot: '^src/features/[^/]+/routes/' },
      to: {
        path: '^src/features/',
        pathNot: [
          '^src/features/$1/',
          '^src/features/[^/]+/(server/)?index[.]tsx?$',
          '^src/features/[^/]+/server/schema[.]ts$',
        ],
      },
    },
    {
      name: 'no-cycle-between-features',
      comment: 'Two features that import each other are one feature, or share something that belongs in lib.',
      severity: 'error',
      // Folder by folder: a cycle through different files of the two features counts too.
      scope: 'folder',
      from: { path: '^src/features/[^/]+$' },
      to: { path: '^src/features/[^/]+$', circular: true },
    },
    {
      name: 'server-imports-features-only-in-roots',
      comment: `src/server is the infrastructure every feature shares; only the composition roots (${compositionRoots.join(', ')}) put features in it.`,
      severity: 'error',
      from: { path: ['^src/server/', '^src/server[.]ts$'], pathNot: compositionRoots },
      to: { path: '^src/features/' },
    },
    {
      name: 'client-code-imports-no-server-code',
      comment:
        'Components, hooks and shared client code run in the browser: server code (src/server, a feature’s server/ ' +
        'folder) reaches them only through tRPC or a server function.',
      severity: 'error',
      from: {
        path: ['^src/(lib|components)/', '^src/features/[^/]+/components/'],
        // The tRPC client's server half: an isomorphic function whose server branch the build drops from the
        // browser bundle (importProtection in vite.config.ts fails the build if server code ever gets through).
        pathNot: '^src/lib/trpc[.]ts$',
      },
      // Types are erased: a component may name the shape of what the server sends.
      to: { path: ['^src/server/', '^src/features/[^/]+/server/'], dependencyTypesNot: ['type-only', 'type-import'] },
    },
    {
      name: 'routes-stay-thin',
      comment:
        'A route renders a feature’s screen and prefetches its data; queries belong in the feature’s server code ' +
        '(or in src/server), never in a route file.',
      severity: 'error',
      from: { path: ['^src/routes/', '^src/features/[^/]+/routes/'] },
      to: { path: ['^src/server/db/([^/]*schema|raw-sql)[.]ts$', '^node_modules/drizzle-orm/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // The generated files (the route tree, and those that read the installed apps: scripts/generate-apps.ts) are how
    // the core reaches apps without naming one: an app may use the core, and the core its manifests, with no cycle
    // between features counted through them.
    exclude: { path: ['^src/paraglide/', '[.]gen[.]ts$'] },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
}
