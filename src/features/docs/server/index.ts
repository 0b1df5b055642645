// What other features may use of the docs on the server (the import rules in .dependency-cruiser.cjs allow nothing
// else): the assistant's tool for searching the documentation.
export { docsAssistantTools } from './assistant-tools'
