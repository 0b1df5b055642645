import { createFileRoute, redirect } from '@tanstack/react-router'

export const Route = createFileRoute('/console/')({
  // Account is the console's only section so far.
  beforeLoad: () => {
    throw redirect({ to: '/console/account' })
  },
})
