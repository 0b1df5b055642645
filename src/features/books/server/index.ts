// What other features may use of books on the server (the import rules in .dependency-cruiser.cjs allow nothing
// else): the assistant's tools for reading and changing books.
export { bookAssistantTools } from './assistant-tools'
