import { m } from '#/paraglide/messages'

const statements = {
  /** A book of the organization's catalogue; `*-own` covers only books the member created. */
  book: ['create', 'read', 'update', 'delete', 'update-own', 'delete-own'],
} as const

type BookAction = (typeof statements.book)[number][]

/** The books' resource among the organization permissions (src/lib/access-control.ts), who has it, and its words. */
export const permissions = {
  statements,
  roles: {
    owner: { book: ['create', 'read', 'update', 'delete', 'update-own', 'delete-own'] as BookAction },
    admin: {},
    member: { book: ['create', 'read', 'update-own', 'delete-own'] as BookAction },
  },
  labels: { book: m.perm_resource_book },
}
