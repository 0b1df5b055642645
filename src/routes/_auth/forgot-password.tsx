import { createFileRoute } from '@tanstack/react-router'
import { AuthHeading } from '#/features/auth/components/auth-layout'
import { ForgotPasswordForm } from '#/features/auth/components/forgot-password-form'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/_auth/forgot-password')({
  head: () => ({ meta: [{ title: m.auth_forgot_title() }] }),
  component: () => (
    <>
      <AuthHeading title={m.auth_forgot_title()} subtitle={m.auth_forgot_subtitle()} />
      <ForgotPasswordForm />
    </>
  ),
})
