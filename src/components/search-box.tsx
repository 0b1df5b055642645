import { SearchIcon } from 'lucide-react'
import { useEffect, useId, useRef, useState } from 'react'
import { Input } from '#/components/ui/input'
import { m } from '#/paraglide/messages'

/** A list's search box: what the reader types is reported after a short pause (or at once on Enter). */
export function SearchBox({
  value,
  placeholder,
  onChange,
}: {
  value: string
  placeholder: string
  onChange: (value: string) => void
}) {
  const [text, setText] = useState(value)
  const id = useId()
  // The page passes a new onChange on every render; were it a dependency, a page that re-renders more often than the
  // pause (a refetch, a session refresh) would restart the timer for ever and the search would never run.
  const report = useRef(onChange)
  report.current = onChange
  useEffect(() => setText(value), [value])
  // Typed before the page hydrated: the input shows it, the state does not (React fires no change for it).
  const input = useRef<HTMLInputElement>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, at hydration; later typing arrives through onChange.
  useEffect(() => {
    if (input.current && input.current.value !== value) setText(input.current.value)
  }, [])
  useEffect(() => {
    if (text === value) return
    const timer = setTimeout(() => report.current(text), 300)
    return () => clearTimeout(timer)
  }, [text, value])
  return (
    <div className="relative min-w-0 flex-1 basis-56">
      <label htmlFor={id} className="sr-only">
        {m.table_search_label()}
      </label>
      <SearchIcon className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-muted-foreground" aria-hidden />
      <Input
        ref={input}
        id={id}
        type="search"
        value={text}
        placeholder={placeholder}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') onChange(text)
        }}
        className="pl-8"
      />
    </div>
  )
}
