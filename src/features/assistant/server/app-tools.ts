import type { AssistantTools } from '#/server/ai/assistant-tools'
import { serverApps } from '#/server/apps.gen'

/**
 * The installed apps' tools for the assistant and what its instructions say of them (their server manifests'
 * `assistantTools`, `assistantInstructions`), in the apps' order; each app's code is loaded when first asked.
 */
export async function installedAppTools(): Promise<{ toolSets: AssistantTools[]; instructions: string[] }> {
  return {
    toolSets: await Promise.all(serverApps.flatMap((app) => (app.assistantTools ? [app.assistantTools()] : []))),
    instructions: serverApps.flatMap((app) => app.assistantInstructions ?? []),
  }
}
