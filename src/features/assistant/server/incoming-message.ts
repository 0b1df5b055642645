import type { UIMessage } from 'ai'
import { z } from '#/lib/zod'

/** The newest message as the chat sends it; only some of it is ever believed (see below). */
export interface IncomingMessage {
  id: string
  role: 'user' | 'assistant'
  parts: { type: string; [key: string]: unknown }[]
}

const approvalAnswer = z.object({
  toolCallId: z.string(),
  state: z.literal('approval-responded'),
  approval: z.object({ id: z.string(), approved: z.boolean() }),
})

/** The words of a person's message: its text parts, nothing else. */
export function userText(message: IncomingMessage): string {
  return message.parts
    .flatMap((part) => (part.type === 'text' && typeof part.text === 'string' ? [part.text] : []))
    .join('\n')
    .trim()
}

type MessagePart = UIMessage['parts'][number]

/** A tool call still waiting for a confirmation the person never gave: settled as declined once they move on. */
export function declinePendingApprovals(messages: UIMessage[]): UIMessage[] {
  return messages.map((message) => ({
    ...message,
    parts: message.parts.map((part) => {
      const pending = part as MessagePart & { state?: string; approval?: { id: string } }
      if (pending.state !== 'approval-requested' || !pending.approval) return part
      return {
        ...pending,
        state: 'output-denied',
        approval: { id: pending.approval.id, approved: false },
      } as MessagePart
    }),
  }))
}

/**
 * The stored assistant message with the person's answers applied: only to confirmations this server asked for, by
 * their ids, so a client cannot approve a call the model never made or change what a call would write.
 */
export function withApprovalAnswers(
  stored: UIMessage,
  incoming: IncomingMessage,
): { message: UIMessage; answered: number } {
  const answers = new Map<string, boolean>()
  for (const part of incoming.parts) {
    const answer = approvalAnswer.safeParse(part)
    if (answer.success)
      answers.set(`${answer.data.toolCallId}\n${answer.data.approval.id}`, answer.data.approval.approved)
  }
  let answered = 0
  const parts = stored.parts.map((part) => {
    const asked = part as MessagePart & { state?: string; toolCallId?: string; approval?: { id: string } }
    if (asked.state !== 'approval-requested' || !asked.approval || !asked.toolCallId) return part
    const approved = answers.get(`${asked.toolCallId}\n${asked.approval.id}`)
    if (approved === undefined) return part
    answered++
    return { ...asked, state: 'approval-responded', approval: { id: asked.approval.id, approved } } as MessagePart
  })
  return { message: { ...stored, parts }, answered }
}
