import { randomUUID } from 'node:crypto'
import type { Database } from '#/server/db/client'
import { aiConversations } from '#/server/db/schema'
import type { ForeignRecords } from '../../../../tests/integration/foreign-records'

export const foreignRecordKinds = ['conversation']
export const foreignRecordSecrets = ['Private thoughts']

/** The assistant's procedures that take a conversation, as the authorization matrix calls them with another's. */
export async function foreignRecordInputs(db: Database, foreign: ForeignRecords): Promise<Record<string, unknown>> {
  const conversationId = `conv-${randomUUID()}`
  await db.insert(aiConversations).values({
    id: conversationId,
    organizationId: foreign.organizationId,
    userId: foreign.ownerId,
    title: 'Private thoughts',
  })
  return {
    'assistant.conversation': { id: conversationId },
    'assistant.rename': { id: conversationId, title: 'Mine now' },
    'assistant.delete': { id: conversationId },
  }
}
