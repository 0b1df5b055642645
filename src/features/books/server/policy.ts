import { member, type ProcedurePolicy, type RoutePolicy } from '#/server/trpc/policy-gates'

/** The books' rows of the authorization policy (src/server/trpc/authorization-policy.ts). */
export const procedurePolicy: Record<string, ProcedurePolicy> = {
  'books.added': { gate: member({ organization: ['update'] }) },
  'books.list': { gate: member({ book: ['read'] }) },
  'books.count': { gate: member({ book: ['read'] }) },
  'books.facets': { gate: member({ book: ['read'] }) },
  'books.get': { gate: member({ book: ['read'] }), names: ['book'] },
  'books.create': { gate: member({ book: ['create'] }), beyond: 'the plan’s books limit' },
  'books.update': {
    gate: member(),
    beyond: 'book:update, or book:update-own for books the caller made',
    names: ['book'],
  },
  'books.delete': {
    gate: member(),
    beyond: 'book:delete, or book:delete-own for books the caller made',
    names: ['book'],
  },
  'books.restore': { gate: member(), beyond: 'book:delete, or book:delete-own; the plan’s limit', names: ['book'] },
  'books.addTags': { gate: member(), beyond: 'book:update, or book:update-own', names: ['book'] },
  'books.import': { gate: member({ book: ['create'] }), beyond: 'the plan’s books limit' },
  'books.imports': { gate: member({ book: ['read'] }) },
  'books.exportCsv': { gate: member({ book: ['read'] }) },
}

export const apiRoutePolicy: Record<string, RoutePolicy> = {}
