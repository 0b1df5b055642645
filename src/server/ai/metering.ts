import { and, desc, eq, gte, sql, sum } from 'drizzle-orm'
import type { Database } from '../db/client'
import { aiRequests, aiUsage, users } from '../db/schema'
import { recordAiRequest, usageMonth } from '../plan-limits'

export interface TokenUsage {
  inputTokens: number
  outputTokens: number
}

/** Adds a step's usage as the provider reported it (a provider may leave either count out). */
export function addUsage(total: TokenUsage, step: { inputTokens?: number; outputTokens?: number }): TokenUsage {
  return {
    inputTokens: total.inputTokens + (step.inputTokens ?? 0),
    outputTokens: total.outputTokens + (step.outputTokens ?? 0),
  }
}

export const noUsage: TokenUsage = { inputTokens: 0, outputTokens: 0 }

/**
 * Takes one request from the organization's monthly allowance before the provider is called (PlanLimitError when
 * none is left). `refund` gives it back when the provider failed and nothing was answered.
 */
export async function takeAiRequest(db: Database, organizationId: string, now = new Date()) {
  await recordAiRequest(db, organizationId, now)
  const month = usageMonth(now)
  return {
    refund: () =>
      db
        .update(aiUsage)
        .set({ requests: sql`greatest(${aiUsage.requests} - 1, 0)` })
        .where(and(eq(aiUsage.organizationId, organizationId), eq(aiUsage.month, month))),
  }
}

/** What one answered request cost, for the organization's usage (or for the site, for docs questions). */
export async function recordAiTokens(
  db: Database,
  entry: {
    organizationId: string | null
    userId: string | null
    surface: 'assistant' | 'docs'
    model: string
    usage: TokenUsage
    outcome: 'completed' | 'stopped'
  },
): Promise<void> {
  await db.insert(aiRequests).values({
    organizationId: entry.organizationId,
    userId: entry.userId,
    surface: entry.surface,
    model: entry.model,
    inputTokens: entry.usage.inputTokens,
    outputTokens: entry.usage.outputTokens,
    outcome: entry.outcome,
  })
}

function startOfMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
}

/** The organization's tokens this calendar month (UTC), the same month its request allowance counts. */
export async function aiTokensThisMonth(db: Database, organizationId: string, now = new Date()): Promise<TokenUsage> {
  const [row] = await db
    .select({
      input: sum(aiRequests.inputTokens).mapWith(Number),
      output: sum(aiRequests.outputTokens).mapWith(Number),
    })
    .from(aiRequests)
    .where(and(eq(aiRequests.organizationId, organizationId), gte(aiRequests.createdAt, startOfMonth(now))))
  return { inputTokens: row?.input ?? 0, outputTokens: row?.output ?? 0 }
}

export interface MemberAiUsage extends TokenUsage {
  userId: string | null
  name: string | null
  requests: number
}

/** This month's requests and tokens per person in the organization, the heaviest first. */
export async function aiUsageByMember(
  db: Database,
  organizationId: string,
  now = new Date(),
): Promise<MemberAiUsage[]> {
  const rows = await db
    .select({
      userId: aiRequests.userId,
      name: users.name,
      requests: sql<number>`count(*)`.mapWith(Number),
      inputTokens: sum(aiRequests.inputTokens).mapWith(Number),
      outputTokens: sum(aiRequests.outputTokens).mapWith(Number),
    })
    .from(aiRequests)
    .leftJoin(users, eq(users.id, aiRequests.userId))
    .where(and(eq(aiRequests.organizationId, organizationId), gte(aiRequests.createdAt, startOfMonth(now))))
    .groupBy(aiRequests.userId, users.name)
    .orderBy(desc(sql`sum(${aiRequests.inputTokens}) + sum(${aiRequests.outputTokens})`))
    .limit(20)
  return rows.map((row) => ({ ...row, inputTokens: row.inputTokens ?? 0, outputTokens: row.outputTokens ?? 0 }))
}
