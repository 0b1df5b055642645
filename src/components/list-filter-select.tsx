import { useId } from 'react'
import { NativeSelect } from '#/components/ui/select'

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
  const id = useId()
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className="text-xs text-muted-foreground">
        {label}
      </label>
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
    </div>
  )
}
