import { MessageSquareTextIcon } from 'lucide-react'
import { defineConsoleApp } from '#/lib/app-manifest'
import { m } from '#/paraglide/messages'

/**
 * The console's assistant: conversations with the configured model, which uses the docs and the installed apps' tools
 * as its user.
 */
export const consoleApp = defineConsoleApp({
  name: 'assistant',
  consoleNav: [
    {
      section: 'main',
      position: 20,
      to: '/console/assistant',
      label: m.console_assistant,
      icon: MessageSquareTextIcon,
    },
  ],
})
