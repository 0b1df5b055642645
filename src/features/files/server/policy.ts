import { member, type ProcedurePolicy, type RoutePolicy } from '#/server/trpc/policy-gates'

/** The files' rows of the authorization policy (src/server/trpc/authorization-policy.ts). */
export const procedurePolicy: Record<string, ProcedurePolicy> = {
  'files.attachments': { gate: member({ book: ['read'] }), beyond: 'only a live book’s', names: ['book'] },
  'files.downloadLink': {
    gate: member({ book: ['read'] }),
    beyond: 'a link for a few minutes, to an attachment of a live book',
    names: ['file'],
  },
  'files.deleteAttachment': {
    gate: member({ book: ['read'] }),
    beyond: 'book:update, or book:update-own for books the caller made',
    names: ['file'],
  },
  'files.removeCover': {
    gate: member({ book: ['read'] }),
    beyond: 'book:update, or book:update-own for books the caller made',
    names: ['book'],
  },
}

export const apiRoutePolicy: Record<string, RoutePolicy> = {
  '/api/uploads/books/$bookId/cover': {
    who: 'a member of the book’s organization with book:update (or book:update-own on their own book)',
    how: 'session cookie only, trusted Origin, 60 uploads a minute per person; an image by content; the plan’s file size and storage',
  },
  '/api/uploads/books/$bookId/attachments': {
    who: 'a member of the book’s organization with book:update (or book:update-own on their own book)',
    how: 'session cookie only, trusted Origin, 60 uploads a minute per person; a PDF or image by content, matching any declared type; the plan’s file size and storage',
  },
}
