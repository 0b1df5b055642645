import { isAiConfigured } from '#/server/ai/provider'
import { AppError, createRouter, orgProcedure } from '#/server/trpc/init'
import { conversationInput, renameConversationInput } from '../schemas'
import {
  conversationMessages,
  deleteConversation,
  findConversation,
  listConversations,
  renameConversation,
} from './conversation-store'

const notFound = () =>
  new AppError({ code: 'NOT_FOUND', appCode: 'CONVERSATION_NOT_FOUND', message: 'No such conversation' })

/** Every member may use the assistant; each sees only their own conversations, in the organization they were held. */
const memberProcedure = orgProcedure({})

export const assistantRouter = createRouter({
  /** Whether the operator configured a model; without one the page says so and sends nothing. */
  status: memberProcedure.query(() => ({ configured: isAiConfigured() })),

  conversations: memberProcedure.query(({ ctx }) =>
    listConversations(ctx.db, { userId: ctx.user.id, organizationId: ctx.organization.id }),
  ),

  conversation: memberProcedure.input(conversationInput).query(async ({ ctx, input }) => {
    const found = await findConversation(ctx.db, input.id, { userId: ctx.user.id, organizationId: ctx.organization.id })
    if (!found.exists || !found.owned) throw notFound()
    return {
      id: found.conversation.id,
      title: found.conversation.title,
      messages: await conversationMessages(ctx.db, input.id),
    }
  }),

  rename: memberProcedure.input(renameConversationInput).mutation(async ({ ctx, input }) => {
    const owner = { userId: ctx.user.id, organizationId: ctx.organization.id }
    if (!(await renameConversation(ctx.db, owner, input.id, input.title))) throw notFound()
    return { id: input.id, title: input.title }
  }),

  delete: memberProcedure.input(conversationInput).mutation(async ({ ctx, input }) => {
    const owner = { userId: ctx.user.id, organizationId: ctx.organization.id }
    if (!(await deleteConversation(ctx.db, owner, input.id))) throw notFound()
    return { id: input.id }
  }),
})
