import type { QueryClient } from '@tanstack/react-query'
import type { LinkProps } from '@tanstack/react-router'
import type { TRPCOptionsProxy } from '@trpc/tanstack-react-query'
import type { LucideIcon } from 'lucide-react'
import type { ComponentType } from 'react'
import type { AppRouter } from '#/server/trpc/root'
import type { Permissions } from './access-control'
import type { ConsoleSession } from './console-session'
import type { Locale } from './i18n'
import type { PlanId } from './plans'
import type { SiteSettings } from './site-settings'

/** A link in the console's navigation, the core's or an app's. */
export interface ConsoleNavEntry {
  to: LinkProps['to']
  label: () => string
  icon: LucideIcon
  /** Shown only to those the server would let in. */
  visible?: (session: ConsoleSession) => boolean
  exact?: boolean
  /** Where it goes among its section's links: they are ordered by this number (the core's go in tens). */
  position: number
}

/** A console page some people may not open: its name as the navigation shows it, and who can grant it. */
export interface GuardedPage {
  name: () => string
  /** The organization's owners and admins (a role), or the app's admins. */
  grantedBy: 'organization' | 'app'
}

/** The days an app's section of the Dashboard is drawn for (the range picker's), in the Dashboard's time zone. */
export interface DashboardSectionProps {
  range: { from: string; to: string; granularity: 'day' | 'week' | 'month'; timeZone: string }
}

/**
 * What an app adds to the Dashboard (docs/decisions/042): declared in the app's `src/features/<app>/dashboard.ts`, read
 * through `src/dashboard-apps.gen.ts` by the Dashboard's page only, so no other page carries its sections.
 */
export interface DashboardAppManifest {
  /** The app's folder under src/features/, as `src/apps.ts` lists it. */
  name: string
  /**
   * Sections of the site's numbers, which app admins see, placed by `position` among the core's (users 20, revenue
   * 30). Each asks for its own numbers; the app's `prefetchSiteDashboard` (app.ts) asks for them first.
   */
  siteSections?: readonly { position: number; component: ComponentType<DashboardSectionProps> }[]
  /**
   * Sections of the active organization's numbers, which its owners and admins see below the core's (members, plan,
   * usage), in `position` order. Each asks for its own numbers; the app's `prefetchOrganizationDashboard` (app.ts)
   * asks for them first.
   */
  organizationSections?: readonly { position: number; component: ComponentType<DashboardSectionProps> }[]
  /** Where a member who sees no numbers may go next (the Dashboard's overview), each for whom it is visible. */
  memberShortcuts?: readonly Pick<ConsoleNavEntry, 'to' | 'label' | 'icon' | 'visible'>[]
}

export function defineDashboardApp<const Manifest extends DashboardAppManifest>(manifest: Manifest): Manifest {
  return manifest
}

/**
 * What an app adds to the parts of every page that the core draws (docs/decisions/042): declared once in the app's
 * `src/features/<app>/app.ts`, read by the core through `src/apps.gen.ts`. Browser-safe, and light: every page's first
 * script carries it (the footer reads it). What only the console shows is in the app's `console.ts`.
 */
export interface AppManifest {
  /** The app's folder under src/features/, as `src/apps.ts` lists it. */
  name: string
  /**
   * The other apps whose code it imports (their public entries): the import rules let it, and only it, and removing
   * one of them is refused while this app stays (`npm run hatch -- remove --with-dependents` takes both).
   */
  needs?: readonly string[]
  /** Links in the site footer's Resources column, after Docs: an address without the language, and its words. */
  footerLinks?: readonly { href: string; label: () => string }[]
  /**
   * Links in the site header's navigation after Docs, and in the footer's Product column: an address without the
   * language, with a fragment where it names a section of the page (`/#pricing`).
   */
  productLinks?: readonly { href: string; hash?: string; label: () => string }[]
  /**
   * Where an organization's plan is changed (billing): a plan limit's notice, the Dashboard's plan and the
   * assistant's refusal link to `manage`, a plan limit's toast to `upgrade`. Without it they say the limit only.
   */
  planPages?: {
    manage: LinkProps['to'] & string
    upgrade: string
    /** Who may see the plan (the Dashboard links to `manage` for them), and who may change it (the notices do). */
    readers: Permissions
    changers: Permissions
  }
  /** Scripts every page loads, as the site settings (its own among them) say: the analytics' page-view script. */
  pageScripts?: (settings: Pick<SiteSettings, 'apps'>) => readonly { src: string; defer?: boolean }[]
  /**
   * Asks for the numbers of its Dashboard sections (dashboard.ts) while the Dashboard's route loads for an app admin,
   * so the server render draws them. Here rather than in dashboard.ts: the route's loader is in every page's first
   * script, the sections are not.
   */
  prefetchSiteDashboard?: (
    context: { queryClient: QueryClient; trpc: TRPCOptionsProxy<AppRouter> },
    input: { from: string; to: string; granularity: 'day' | 'week' | 'month' },
  ) => Promise<unknown>
  /** The same for its sections of the organization's numbers, for those who may manage the organization. */
  prefetchOrganizationDashboard?: (
    context: { queryClient: QueryClient; trpc: TRPCOptionsProxy<AppRouter> },
    input: { from: string; to: string; granularity: 'day' | 'week' | 'month' },
  ) => Promise<unknown>
}

/**
 * What an app draws in the site footer (docs/decisions/042): declared in the app's `src/features/<app>/footer.ts`, read
 * through `src/footer-apps.gen.ts` by the footer's pages only, so no other page's first script carries it.
 */
export interface FooterAppManifest {
  /** The app's folder under src/features/, as `src/apps.ts` lists it. */
  name: string
  /** Panels in the footer's last column, after its links (a form, say). */
  panels: readonly ComponentType[]
}

/**
 * What an app adds to signing in and up (docs/decisions/042): declared in the app's `src/features/<app>/sign-in.ts`,
 * read through `src/sign-in-apps.gen.ts` by the sign-in and sign-up pages only.
 */
export interface SignInAppManifest {
  /** The app's folder under src/features/, as `src/apps.ts` lists it. */
  name: string
  /** Ways to sign in among the alternatives to the password form, each while the settings say it is on. */
  alternatives?: readonly {
    shown: (settings: Pick<SiteSettings, 'apps'>) => boolean
    component: ComponentType<{ redirect: string | undefined }>
  }[]
  /** Words for the error codes its auth hooks refuse with, wherever a sign-in page shows one. */
  authErrorMessages?: Readonly<Record<string, () => string>>
}

/**
 * What an app adds to a book's page (docs/decisions/042): declared in the app's `src/features/<app>/book.ts`, read
 * through `src/book-apps.gen.ts` by that page only.
 */
export interface BookAppManifest {
  /** The app's folder under src/features/, as `src/apps.ts` lists it. */
  name: string
  /** Under the cover, for those who may update the book. */
  coverActions?: ComponentType<{ bookId: string; hasUploadedCover: boolean }>
  /** Below the description, in this order, by a name of the app's choosing. */
  sections?: Readonly<Record<string, ComponentType<{ bookId: string; canUpdate: boolean }>>>
}

export function defineBookApp<const Manifest extends BookAppManifest>(manifest: Manifest): Manifest {
  return manifest
}

export function defineSignInApp<const Manifest extends SignInAppManifest>(manifest: Manifest): Manifest {
  return manifest
}

/**
 * What an app adds to the landing page (docs/decisions/042): declared in the app's `src/features/<app>/landing.ts`, read
 * through `src/landing-apps.gen.ts` by the landing page only.
 */
export interface LandingAppManifest {
  /** The app's folder under src/features/, as `src/apps.ts` lists it. */
  name: string
  /** Sections placed by `position` among the core's (hero 10, features 20, questions 40). */
  sections?: readonly { position: number; component: ComponentType }[]
  /** Cards in the features section, after the core's sign-in and organizations. */
  features?: readonly { icon: LucideIcon; title: () => string; body: () => string }[]
  /** Questions in the frequently asked ones, before how to deploy. */
  questions?: readonly { question: () => string; answer: () => string }[]
}

export function defineLandingApp<const Manifest extends LandingAppManifest>(manifest: Manifest): Manifest {
  return manifest
}

export function defineFooterApp<const Manifest extends FooterAppManifest>(manifest: Manifest): Manifest {
  return manifest
}

/** A link under a call of a tool in the assistant's conversation: what the call found or made. */
export interface AssistantToolLink {
  title: string
  url: string
}

/**
 * How the console assistant's conversation shows a call of one of an app's tools (its server manifest's
 * `assistantTools`). The input is what the model wrote and the output what the tool returned, as stored with the
 * conversation: read them as possibly anything.
 */
export interface AssistantToolView {
  icon: LucideIcon
  /** The call's line: from its input while it runs, with its output once it has one. */
  label: (call: { input: Record<string, unknown>; output?: Record<string, unknown> }) => string
  /** What it returned: how many it found (said after the line, for a search), and links under the line. */
  result?: (output: Record<string, unknown>) => { found?: number; links: readonly AssistantToolLink[] }
  /** For a tool the person confirms before it runs (`confirmFirst`): the question, what it would do, the answers. */
  confirm?: {
    question: () => string
    details: ComponentType<{ input: Record<string, unknown> }>
    accept: () => string
    decline: () => string
    /** Said in place of its result once the person declined. */
    declined: () => string
  }
}

/**
 * What an app adds to the console (docs/decisions/042): declared in the app's `src/features/<app>/console.ts`, read
 * through `src/console-apps.gen.ts` by the console's own scripts only.
 */
export interface ConsoleAppManifest {
  /** The app's folder under src/features/, as `src/apps.ts` lists it. */
  name: string
  /** Links in the console's navigation: its main section, or the organization's. */
  consoleNav?: readonly (ConsoleNavEntry & { section: 'main' | 'organization' })[]
  /** Its console pages that say who can grant them to someone who may not open them (`requireConsoleAccess`). */
  guardedPages?: Readonly<Record<string, GuardedPage>>
  /** Shown in the console's top bar, before the account menu (the notification bell). */
  consoleTopBar?: readonly ComponentType[]
  /** Sections of Console → Account, after the core's (lazy: only that page loads them). */
  accountSections?: readonly ComponentType[]
  /**
   * Sections of Console → System for app admins, after the background jobs (a payment event to replay); lazy, as the
   * Account's are.
   */
  systemSections?: readonly ComponentType[]
  /** How the assistant's conversation shows calls of its assistant tools, by the tools' names. */
  assistantTools?: Readonly<Record<string, AssistantToolView>>
  /** Questions a new conversation with the assistant offers to start with, before the one about the docs. */
  assistantSuggestions?: readonly (() => string)[]
}

export function defineConsoleApp<const Manifest extends ConsoleAppManifest>(manifest: Manifest): Manifest {
  return manifest
}

export function defineApp<const Manifest extends AppManifest>(manifest: Manifest): Manifest {
  return manifest
}

/** A limit of the plans that an app enforces (its storage, say), with the words the pages use for it. */
export interface AppPlanLimit {
  /** Its name in the Billing overview's limits (`storage`): not one of the core's (members, aiRequests). */
  name: string
  /** What each plan allows; null is unlimited. */
  perPlan: Readonly<Record<PlanId, number | null>>
  /** How an amount of it is written: a number, or a size in bytes. */
  unit: 'count' | 'bytes'
  /** Its line on a plan's card (the pricing section), with the plan's limit written out and as it is (null: none). */
  cardLine: (planId: PlanId, limit: string, value: number | null) => string
  /** Its column in the docs' plans table: the header, and a plan's cell, in that language. */
  docsColumn: {
    header: (locale: Locale) => string
    cell: (planId: PlanId, limit: string, locale: Locale, value: number | null) => string
  }
  /** Its row in Billing's usage, with a line under it. */
  usage: { label: () => string; note?: (planId: PlanId) => string }
  /** Said when the next one would be refused, and when there are more than the plan allows (after a downgrade). */
  reached: (amounts: { used: string; limit: string }) => string
  over: (amounts: { used: string; limit: string }) => string
  /**
   * A plan change that would leave the organization over this limit is refused until it uses less (a count the
   * organization can bring down itself, such as its books): the preview's line, the refusal, and where to go.
   */
  downgrade?: {
    blocked: (amounts: { used: string; allowed: string }) => string
    refused: (amounts: { limit: string; count: string }) => string
    manage: { to: LinkProps['to']; label: () => string }
  }
}

/**
 * What an app adds to the plans (docs/decisions/042): declared in the app's `src/features/<app>/plans.ts`, read
 * through `src/plan-apps.gen.ts` by the pricing cards, the docs' plans table and Billing. The app enforces its limits
 * itself; its server manifest's `planUsage` says how much an organization uses.
 */
export interface PlanAppManifest {
  /** The app's folder under src/features/, as `src/apps.ts` lists it. */
  name: string
  limits: readonly AppPlanLimit[]
}

export function definePlanApp<const Manifest extends PlanAppManifest>(manifest: Manifest): Manifest {
  return manifest
}
