import { defineServerApp } from '#/server/app-manifest'

/**
 * Books: the organizations' catalogues, their imports, their purge after the restore period, sample data, and tools
 * for models (the MCP server's, the console assistant's).
 */
export const serverApp = defineServerApp({
  name: 'books',
  jobs: async () => [(await import('./book-import-job')).bookImportJob],
  maintenanceTasks: [
    {
      name: 'purging deleted books',
      run: async (db) => (await import('./book-purge')).purgeDeletedBooks(db),
    },
  ],
  seeds: { books: async () => (await import('./book-seed')).seedBooks },
  planUsage: async () => {
    const { liveBookCount } = await import('./book-limits')
    return async (db, organizationId) => ({ books: await liveBookCount(db, organizationId) })
  },
  mcpTools: async () => (await import('./mcp-tools')).bookMcpTools,
  assistantTools: async () => (await import('./assistant-tools')).bookAssistantTools,
  assistantInstructions: [
    "Use search_books to find the organization's books before answering questions about them.",
    'Use create_book to add a book when asked; the person confirms each book on screen before it is written, so do not ask for confirmation in words. If it is refused, say why.',
  ],
})
