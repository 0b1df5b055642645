// What the organization tests share: people who sign up, organizations they make and join, and calls to Better Auth
// and to tRPC made the way the browser makes them (cookies, this site's origin, real handlers).
import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import superjson from 'superjson'
import { serverApps } from '#/server/apps.gen'
import { authForDatabase } from '#/server/auth/auth'
import type { Database } from '#/server/db/client'
import {
  invitations,
  members,
  organizationActivity,
  organizationRoles,
  organizations,
  teamMembers,
  teams,
  users,
} from '#/server/db/schema'
import { handleTrpcRequest } from '#/server/trpc/handler'
import { authRequest, cookieHeaderOf, testOrigin } from './auth-requests'

// Without SMTP every email stays in the outbox table, where the tests read them.
delete process.env.SMTP_URL

export const password = 'engine1843'

export interface Person {
  id: string
  name: string
  email: string
  /** The session cookie, as the browser sends it back. */
  cookie: string
}

/** An answer, read once: the status, Better Auth's (or the app's) error code, and the JSON body. */
export interface Answer<T = Record<string, unknown>> {
  status: number
  code?: string
  message?: string
  body: T
  /** The cookies the answer sets (a new session's), as a Cookie header. */
  cookie: string
}

/** A tRPC answer: the data, or the error with the app's own code (AppError). */
export interface TrpcAnswer<T = unknown> {
  status: number
  data?: T
  error?: { message: string; code: string; appCode?: string; fieldErrors?: Record<string, string[] | undefined> }
}

type RequestOptions = { body?: unknown; cookie?: string; headers?: Record<string, string> }

export function organizationHarness(db: Database) {
  const auth = authForDatabase(db)
  let client = 0

  /** A Better Auth request; each comes from its own address, so rate limits never answer in place of the rule. */
  const call = async <T = Record<string, unknown>>(path: string, options: RequestOptions = {}): Promise<Answer<T>> => {
    client += 1
    const response = await authRequest(auth, path, {
      ...options,
      ip: `198.18.${Math.floor(client / 250) % 250}.${client % 250}`,
    })
    const text = await response.text()
    let body: unknown = null
    try {
      body = text ? JSON.parse(text) : null
    } catch {
      body = text
    }
    const error = (body ?? {}) as { code?: string; message?: string }
    return {
      status: response.status,
      code: response.ok ? undefined : error.code,
      message: response.ok ? undefined : error.message,
      body: body as T,
      cookie: cookieHeaderOf(response),
    }
  }

  /** A procedure over HTTP, through the same handler as /api/trpc, with the caller's cookie. */
  const trpc = async <T = unknown>(
    kind: 'query' | 'mutation',
    path: string,
    cookie: string | undefined,
    input?: unknown,
  ): Promise<TrpcAnswer<T>> => {
    const payload = input === undefined ? undefined : JSON.stringify(superjson.serialize(input))
    const query = kind === 'query' && payload ? `?input=${encodeURIComponent(payload)}` : ''
    const response = await handleTrpcRequest(
      new Request(`${testOrigin}/api/trpc/${path}${query}`, {
        method: kind === 'query' ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json', origin: testOrigin, ...(cookie ? { cookie } : {}) },
        body: kind === 'mutation' ? (payload ?? '{}') : undefined,
      }),
      db,
    )
    const body = (await response.json()) as {
      result?: { data: unknown }
      error?: {
        json: {
          message: string
          data: { code: string; appCode?: string; fieldErrors?: Record<string, string[] | undefined> }
        }
      }
    }
    return {
      status: response.status,
      data: body.result ? (superjson.deserialize(body.result.data as never) as T) : undefined,
      error: body.error
        ? {
            message: body.error.json.message,
            code: body.error.json.data.code,
            appCode: body.error.json.data.appCode,
            fieldErrors: body.error.json.data.fieldErrors,
          }
        : undefined,
    }
  }

  /** Signs up with email and password (from `referer`, when given: the page the form was on). */
  const signUp = async (name: string, options: { email?: string; referer?: string } = {}): Promise<Person> => {
    const email = options.email ?? `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@example.com`
    const answer = await call<{ user: { id: string } }>('/sign-up/email', {
      body: { name, email, password },
      headers: options.referer ? { referer: options.referer } : undefined,
    })
    if (answer.status !== 200) throw new Error(`sign-up of ${email} answered ${answer.status} ${answer.code}`)
    return { id: answer.body.user.id, name, email, cookie: answer.cookie }
  }

  /** Creates an organization as `owner` (it becomes their active one) and returns its id. */
  const createOrganization = async (
    owner: Person,
    name: string,
    slug: string,
    options: { plan?: 'free' | 'team' } = {},
  ): Promise<string> => {
    const answer = await call<{ id: string }>('/organization/create', { body: { name, slug }, cookie: owner.cookie })
    if (answer.status !== 200) throw new Error(`creating ${slug} answered ${answer.status} ${answer.code}`)
    // These stories build organizations larger than Free allows; they are about roles, not plans (billing.test.ts is).
    // The plan is set to end with its period, so an owner may still delete the organization.
    if ((options.plan ?? 'team') === 'team') await givePlan(answer.body.id, 'team', 50, { endsWithPeriod: true })
    return answer.body.id
  }

  /**
   * Puts an organization on a paid plan as billing's ledger records one (an active subscription). Without billing
   * every organization already has the largest plan, with no limit on its members (src/server/plan-limits.ts).
   */
  const givePlan = async (
    organizationId: string,
    planId: 'pro' | 'team',
    seats = 1,
    options: { endsWithPeriod?: boolean } = {},
  ) => {
    if (!serverApps.some((app) => app.organizationPlan)) return
    // Written as SQL: the billing app's table is not the core's to import, and goes when billing is removed.
    await db.execute(sql`
      insert into billing_subscriptions
        (id, organization_id, provider, provider_subscription_id, plan_id, interval, seats, currency, amount, status,
         cancel_at_period_end)
      values (${randomUUID()}, ${organizationId}, 'local', ${`test_${organizationId}`}, ${planId}, 'monthly', ${seats},
        'USD', 0, 'active', ${options.endsWithPeriod ?? false})`)
  }

  /** `inviter` invites an address; returns the invitation id. */
  const invite = async (
    inviter: Person,
    organizationId: string,
    email: string,
    role: string | string[] = 'member',
    extra: Record<string, unknown> = {},
  ): Promise<string> => {
    const answer = await call<{ id: string }>('/organization/invite-member', {
      body: { email, role, organizationId, ...extra },
      cookie: inviter.cookie,
    })
    if (answer.status !== 200) throw new Error(`inviting ${email} answered ${answer.status} ${answer.code}`)
    return answer.body.id
  }

  /** `person` (already signed up) joins by invitation; returns their member id. The org becomes their active one. */
  const join = async (organizationId: string, inviter: Person, person: Person, role: string | string[] = 'member') => {
    const invitationId = await invite(inviter, organizationId, person.email, role)
    // Only a confirmed address answers an invitation: the person opened the verification link.
    await confirmEmail(person)
    const answer = await call<{ member: { id: string } }>('/organization/accept-invitation', {
      body: { invitationId },
      cookie: person.cookie,
    })
    if (answer.status !== 200) throw new Error(`${person.name} accepting answered ${answer.status} ${answer.code}`)
    return answer.body.member.id
  }

  /** The person opened the link in their verification email. */
  const confirmEmail = async (person: Person) => {
    await db.update(users).set({ emailVerified: true }).where(eq(users.id, person.id))
  }

  /** The stored membership of a user in an organization, if any. */
  const membership = async (organizationId: string, userId: string) => {
    const [row] = await db
      .select()
      .from(members)
      .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)))
    return row
  }

  /** The session's active organization, as Better Auth reads it for the next request. */
  const activeOrganizationOf = async (person: Person): Promise<string | null | undefined> => {
    const answer = await call<{ session: { activeOrganizationId?: string | null } } | null>('/get-session', {
      cookie: person.cookie,
    })
    return answer.body?.session.activeOrganizationId
  }

  /** Everything stored for one organization, to compare before and after someone tries to change it. */
  const snapshot = async (organizationId: string) => {
    const orgTeams = await db.select().from(teams).where(eq(teams.organizationId, organizationId))
    const orgTeamMembers = []
    for (const team of orgTeams) {
      orgTeamMembers.push(...(await db.select().from(teamMembers).where(eq(teamMembers.teamId, team.id))))
    }
    return {
      organization: await db.select().from(organizations).where(eq(organizations.id, organizationId)),
      members: await db.select().from(members).where(eq(members.organizationId, organizationId)),
      invitations: await db.select().from(invitations).where(eq(invitations.organizationId, organizationId)),
      teams: orgTeams,
      teamMembers: orgTeamMembers,
      roles: await db.select().from(organizationRoles).where(eq(organizationRoles.organizationId, organizationId)),
      activity: await db
        .select()
        .from(organizationActivity)
        .where(eq(organizationActivity.organizationId, organizationId)),
    }
  }

  return {
    auth,
    call,
    trpc,
    signUp,
    createOrganization,
    givePlan,
    invite,
    join,
    confirmEmail,
    membership,
    activeOrganizationOf,
    snapshot,
  }
}

export type OrganizationHarness = ReturnType<typeof organizationHarness>

/** The activity log of the caller's active organization (owners and admins). */
export type ActivityPage = {
  items: { id: number; actorName: string; action: string; details: Record<string, string> }[]
}
