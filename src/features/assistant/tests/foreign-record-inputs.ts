import type { ForeignRecords } from '../../../../tests/integration/foreign-records'

/** The assistant's procedures that take a conversation, as the authorization matrix calls them with another's. */
export function foreignRecordInputs(foreign: ForeignRecords): Record<string, unknown> {
  return {
    'assistant.conversation': { id: foreign.conversationId },
    'assistant.rename': { id: foreign.conversationId, title: 'Mine now' },
    'assistant.delete': { id: foreign.conversationId },
  }
}
