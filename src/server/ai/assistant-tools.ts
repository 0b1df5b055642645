import type { ToolSet } from 'ai'
import type { Locale } from '#/lib/i18n'
import type { Database } from '../db/client'
import type { AppCaller } from '../trpc/root'

/** What a feature's assistant tools get: the app's procedures as the signed-in person, and where they are. */
export interface AssistantToolContext {
  /** Every procedure with every check it makes, as the person who is chatting (their session, their organization). */
  asUser: AppCaller
  locale: Locale
  /** The database and the person, for what a tool does beside the procedures (telling the person it was done). */
  db: Database
  userId: string
}

/** A feature's tools for the console assistant; src/routes/api/assistant.ts composes them. */
export interface AssistantToolSet {
  tools: ToolSet
  /** Tools that change something: the person confirms each call before it runs. */
  confirmFirst?: string[]
}

export type AssistantTools = (context: AssistantToolContext) => AssistantToolSet

/** A tool's refusal in the person's language (no permission, a plan limit, invalid input): the model and the chat see it. */
export class ToolRefusal extends Error {
  override name = 'ToolRefusal'
  /** The AI SDK shows a tool's error as `String(error)`: the words alone, without the class name. */
  override toString(): string {
    return this.message
  }
}
