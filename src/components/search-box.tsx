import { SearchIcon } from 'lucide-react'
import { useEffect, useId, useState } from 'react'
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
  useEffect(() => setText(value), [value])
  useEffect(() => {
    if (text === value) return
    const timer = setTimeout(() => onChange(text), 300)
    return () => clearTimeout(timer)
  }, [text, value, onChange])
  return (
    <div className="relative min-w-0 flex-1 basis-56">
      <label htmlFor={id} className="sr-only">
        {m.table_search_label()}
      </label>
      <SearchIcon className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-muted-foreground" aria-hidden />
      <Input
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
