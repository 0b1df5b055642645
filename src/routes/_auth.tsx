import { createFileRoute, Outlet } from '@tanstack/react-router'
import { AuthLayout } from '#/features/auth/components/auth-layout'
import { useSiteSettings } from '#/lib/use-site-settings'

export const Route = createFileRoute('/_auth')({
  component: function AuthArea() {
    const { productName } = useSiteSettings()
    return (
      <AuthLayout productName={productName}>
        <Outlet />
      </AuthLayout>
    )
  },
})
