import type { UIMessage } from 'ai'
import { and, asc, desc, eq, sql } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { aiConversations, aiMessages } from '#/server/db/schema'
import { assistantLimits } from '../schemas'

export interface ConversationOwner {
  userId: string
  organizationId: string
}

/** The conversation if it exists; `owned` says whether it is this person's in this organization. */
export async function findConversation(db: Database, id: string, owner: ConversationOwner) {
  const [row] = await db.select().from(aiConversations).where(eq(aiConversations.id, id))
  if (!row) return { exists: false as const }
  return {
    exists: true as const,
    owned: row.userId === owner.userId && row.organizationId === owner.organizationId,
    conversation: row,
  }
}

export async function conversationMessages(db: Database, id: string): Promise<UIMessage[]> {
  const rows = await db
    .select({ id: aiMessages.id, role: aiMessages.role, parts: aiMessages.parts })
    .from(aiMessages)
    .where(eq(aiMessages.conversationId, id))
    .orderBy(asc(aiMessages.position))
  return rows.map((row) => ({ id: row.id, role: row.role, parts: row.parts as UIMessage['parts'] }))
}

/** The first words of the first question: what the list shows until the person renames it. */
export function titleFrom(text: string): string {
  const words = text.replaceAll(/\s+/g, ' ').trim()
  return words.length <= assistantLimits.titleMax ? words : `${words.slice(0, assistantLimits.titleMax - 1)}…`
}

/**
 * Writes the whole conversation as it now stands, in one transaction (a reader sees the old one or the new one), and
 * only over the conversation as the request found it: `expectedUpdatedAt` null for a new one, else its `updatedAt`
 * then. False, and nothing written, when it was deleted or changed meanwhile (another tab's turn).
 */
export function saveConversation(
  db: Database,
  entry: ConversationOwner & { id: string; title: string; messages: UIMessage[]; expectedUpdatedAt: Date | null },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Milliseconds, as JavaScript keeps them: the value read back compares equal.
    const now = new Date()
    const claimed =
      entry.expectedUpdatedAt === null
        ? await tx
            .insert(aiConversations)
            .values({
              id: entry.id,
              userId: entry.userId,
              organizationId: entry.organizationId,
              title: entry.title,
              createdAt: now,
              updatedAt: now,
            })
            .onConflictDoNothing()
            .returning({ id: aiConversations.id })
        : await tx
            .update(aiConversations)
            .set({ updatedAt: now })
            .where(
              and(
                eq(aiConversations.id, entry.id),
                ownedBy(entry),
                sql`date_trunc('milliseconds', ${aiConversations.updatedAt}) = ${entry.expectedUpdatedAt.toISOString()}::timestamptz`,
              ),
            )
            .returning({ id: aiConversations.id })
    if (claimed.length === 0) return false
    await tx.delete(aiMessages).where(eq(aiMessages.conversationId, entry.id))
    if (entry.messages.length > 0) {
      await tx.insert(aiMessages).values(
        entry.messages.map((message, position) => ({
          conversationId: entry.id,
          position,
          id: message.id,
          role: message.role === 'user' ? ('user' as const) : ('assistant' as const),
          parts: message.parts as unknown[],
        })),
      )
    }
    return true
  })
}

const ownedBy = (owner: ConversationOwner) =>
  and(eq(aiConversations.userId, owner.userId), eq(aiConversations.organizationId, owner.organizationId))

export function listConversations(db: Database, owner: ConversationOwner) {
  return db
    .select({ id: aiConversations.id, title: aiConversations.title, updatedAt: aiConversations.updatedAt })
    .from(aiConversations)
    .where(ownedBy(owner))
    .orderBy(desc(aiConversations.updatedAt))
    .limit(200)
}

/** True when the person's conversation was renamed; false when they have none with that id here. */
export async function renameConversation(db: Database, owner: ConversationOwner, id: string, title: string) {
  const renamed = await db
    .update(aiConversations)
    .set({ title })
    .where(and(eq(aiConversations.id, id), ownedBy(owner)))
    .returning({ id: aiConversations.id })
  return renamed.length > 0
}

export async function deleteConversation(db: Database, owner: ConversationOwner, id: string) {
  const deleted = await db
    .delete(aiConversations)
    .where(and(eq(aiConversations.id, id), ownedBy(owner)))
    .returning({ id: aiConversations.id })
  return deleted.length > 0
}
