import { booksRouter } from './books-router'

/** The books' procedures, joined to the app router (src/server/trpc/root.ts) under these names. */
export const routers = { books: booksRouter }
