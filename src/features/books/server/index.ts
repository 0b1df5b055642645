// What other features may use of books on the server (the import rules in .dependency-cruiser.cjs allow nothing
// else): who may change a book, and its purge. Its tools for models are its server manifest's (server/app.ts).
export { mayChangeBook } from '../book-rules'
export { purgeDeletedBooks } from './book-purge'
export { addBook } from './book-queries'
