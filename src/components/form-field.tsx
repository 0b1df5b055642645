import { type ComponentProps, useId } from 'react'
import { Input } from '#/components/ui/input'

interface FormFieldProps extends ComponentProps<'input'> {
  label: string
  error?: string | undefined
}

/** A labelled input whose error message is announced and tied to it for screen readers. */
export function FormField({ label, error, ...inputProps }: FormFieldProps) {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...inputProps}
      />
      {error ? (
        <p id={errorId} className="text-sm text-destructive" data-testid={`error-${inputProps.name}`}>
          {error}
        </p>
      ) : null}
    </div>
  )
}
