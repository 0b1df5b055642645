/** A message about the whole form (not one field), announced to screen readers. */
export function FormNotice({ children }: { children: string | null }) {
  if (!children) return null
  return (
    <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm">
      {children}
    </p>
  )
}
