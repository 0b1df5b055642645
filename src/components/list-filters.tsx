import { type ReactNode, useEffect, useId, useState } from 'react'
import { Input } from '#/components/ui/input'
import { NativeSelect } from '#/components/ui/select'
import { cn } from '#/lib/utils'

/** A list filter's label above its control; every filter in a toolbar lines up the same way. */
function ListFilterField({
  label,
  className,
  children,
}: {
  label: string
  className?: string
  children: (id: string) => ReactNode
}) {
  const id = useId()
  return (
    <div className={cn('grid gap-1', className)}>
      <label htmlFor={id} className="text-xs text-muted-foreground">
        {label}
      </label>
      {children(id)}
    </div>
  )
}

/** One of a list's filters: a labelled native select whose empty option means "any". */
export function ListFilterSelect({
  label,
  value,
  onChange,
  options,
}: {
  label: string
  value: string | undefined
  onChange: (value: string | undefined) => void
  options: [value: string, label: string][]
}) {
  return (
    <ListFilterField label={label}>
      {(id) => (
        <NativeSelect
          id={id}
          className="w-40"
          value={value ?? ''}
          onChange={(event) => onChange(event.target.value || undefined)}
        >
          {options.map(([option, text]) => (
            <option key={option} value={option}>
              {text}
            </option>
          ))}
        </NativeSelect>
      )}
    </ListFilterField>
  )
}

/** A day filter (yyyy-mm-dd, the browser's date picker); cleared means "any". */
export function ListFilterDate({
  label,
  value,
  onChange,
}: {
  label: string
  value: string | undefined
  onChange: (day: string | undefined) => void
}) {
  return (
    <ListFilterField label={label}>
      {(id) => (
        <Input
          id={id}
          type="date"
          className="w-40"
          value={value ?? ''}
          onChange={(event) => onChange(event.target.value || undefined)}
        />
      )}
    </ListFilterField>
  )
}

/**
 * A whole-number filter such as a year. It applies on Enter or when focus leaves, not per keystroke, so typing
 * "1999" does not load the list for 1, 19 and 199 first. An empty box clears the filter; text that is not a number of
 * up to `maxDigits` digits is put back to the applied value.
 */
export function ListFilterNumber({
  label,
  value,
  onChange,
  maxDigits = 4,
}: {
  label: string
  value: number | undefined
  onChange: (value: number | undefined) => void
  maxDigits?: number
}) {
  const [text, setText] = useState(value?.toString() ?? '')
  useEffect(() => setText(value?.toString() ?? ''), [value])
  const commit = () => {
    const trimmed = text.trim()
    const valid = trimmed === '' || new RegExp(`^\\d{1,${maxDigits}}$`).test(trimmed)
    const next = trimmed === '' ? undefined : Number(trimmed)
    if (valid && next !== value) onChange(next)
    else setText(value?.toString() ?? '')
  }
  return (
    <ListFilterField label={label} className="w-28">
      {(id) => (
        <Input
          id={id}
          inputMode="numeric"
          value={text}
          onChange={(event) => setText(event.target.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commit()
          }}
        />
      )}
    </ListFilterField>
  )
}
