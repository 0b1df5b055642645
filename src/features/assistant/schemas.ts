import { storableString } from '#/lib/stored-text'
import { z } from '#/lib/zod'
import { conversationIdPattern } from './search'

/** A conversation's id is made by the browser (the chat's id), so the server checks its shape. */
export const conversationId = z.string().regex(conversationIdPattern, 'assistant_conversation_not_found')

export const assistantLimits = { messageMax: 8000, titleMax: 80 } as const

export const conversationInput = z.object({ id: conversationId })

export const renameConversationInput = z.object({
  id: conversationId,
  title: storableString('validation_required')
    .trim()
    .min(1, 'validation_required')
    .max(assistantLimits.titleMax, 'assistant_title_too_long'),
})
