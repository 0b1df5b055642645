import { type ErrorComponentProps, Link, rootRouteId, useMatch, useRouter } from '@tanstack/react-router'
import { useState } from 'react'
import { Button } from '#/components/ui/button'
import { m } from '#/paraglide/messages'

function Screen({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main
      id="main"
      className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-6 py-16 text-center"
    >
      <h1 className="text-3xl font-semibold tracking-tight">{title}</h1>
      {children}
    </main>
  )
}

/** No route matched the URL at all (HTTP 404). */
export function RootNotFound() {
  return (
    <Screen title={m.not_found_title()}>
      <p className="text-muted-foreground">{m.not_found_message()}</p>
      <Button asChild>
        <Link to="/">{m.back_to_home()}</Link>
      </Button>
    </Screen>
  )
}

/** A route inside a layout said its page does not exist (HTTP 404, the layout stays). */
export function PageNotFound() {
  return (
    <Screen title={m.not_found_title()}>
      <p className="text-muted-foreground">{m.page_missing_message()}</p>
      <div className="flex flex-wrap justify-center gap-2">
        <Button variant="outline" onClick={() => window.history.back()}>
          {m.go_back()}
        </Button>
        <Button asChild>
          <Link to="/">{m.start_over()}</Link>
        </Button>
      </div>
    </Screen>
  )
}

/** A route failed to load or render (HTTP 500 on the server render). */
export function RouteErrorScreen({ error }: ErrorComponentProps) {
  const router = useRouter()
  const isRoot = useMatch({ strict: false, select: (match) => match.id === rootRouteId })
  const [showError, setShowError] = useState(false)
  const message = error instanceof Error ? error.message : String(error)
  return (
    <Screen title={m.error_title()}>
      <div className="flex flex-wrap justify-center gap-2">
        <Button onClick={() => router.invalidate()}>{m.error_try_again()}</Button>
        {isRoot ? (
          <Button variant="outline" asChild>
            <Link to="/">{m.error_home()}</Link>
          </Button>
        ) : (
          <Button variant="outline" onClick={() => window.history.back()}>
            {m.error_go_back()}
          </Button>
        )}
        <Button variant="ghost" aria-expanded={showError} onClick={() => setShowError((shown) => !shown)}>
          {showError ? m.error_hide() : m.error_show()}
        </Button>
      </div>
      {showError ? (
        <pre className="max-w-full overflow-auto rounded-md border bg-muted p-3 text-left text-sm text-destructive">
          {message}
        </pre>
      ) : null}
    </Screen>
  )
}
