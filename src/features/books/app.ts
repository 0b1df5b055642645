import { defineApp } from '#/lib/app-manifest'

/** Books: the demo catalogue every organization keeps in the console, to replace with your own product's records. */
export const app = defineApp({
  name: 'books',
  prefetchOrganizationDashboard: ({ queryClient, trpc }, input) =>
    queryClient.prefetchQuery(trpc.books.added.queryOptions(input)),
})
