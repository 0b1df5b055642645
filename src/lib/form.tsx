import { type AnyFormApi, createFormHook, createFormHookContexts } from '@tanstack/react-form'
import { type ReactNode, useId } from 'react'
import { Button } from '#/components/ui/button'
import { Input } from '#/components/ui/input'
import { NativeSelect } from '#/components/ui/select'
import { fieldErrorsOf, translateMessage } from '#/lib/errors'
import { cn } from '#/lib/utils'

// The one way to write a form (docs/decisions/011-forms-and-tables.md): TanStack Form, validated by the same zod
// schema as the procedure, with these field components so every form looks and behaves alike.

const { fieldContext, formContext, useFieldContext, useFormContext } = createFormHookContexts()

/** The first message of a field, translated; schema issues carry a message key (src/lib/errors.ts). */
function firstError(errors: unknown[]): string | undefined {
  const first = errors.find((error) => error !== undefined && error !== null && error !== false)
  if (first === undefined) return undefined
  const text = typeof first === 'string' ? first : (first as { message?: unknown }).message
  return typeof text === 'string' ? translateMessage(text) : undefined
}

function FieldFrame({
  id,
  label,
  hint,
  error,
  name,
  children,
}: {
  id: string
  label: string
  hint?: string
  error?: string
  name: string
  children: ReactNode
}) {
  return (
    <div className="grid content-start gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children}
      {hint && !error ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-destructive" data-testid={`error-${name}`}>
          {error}
        </p>
      ) : null}
    </div>
  )
}

type FieldProps = { label: string; hint?: string }

function describedBy(id: string, error: string | undefined, hint: string | undefined) {
  return error ? `${id}-error` : hint ? `${id}-hint` : undefined
}

function TextField({ label, hint, ...inputProps }: FieldProps & Omit<React.ComponentProps<'input'>, 'value'>) {
  const field = useFieldContext<string>()
  const id = useId()
  const error = firstError(field.state.meta.errors)
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} name={field.name}>
      <Input
        id={id}
        name={field.name}
        value={field.state.value}
        onChange={(event) => field.handleChange(event.target.value)}
        onBlur={field.handleBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        {...inputProps}
      />
    </FieldFrame>
  )
}

function TextAreaField({
  label,
  hint,
  className,
  ...props
}: FieldProps & Omit<React.ComponentProps<'textarea'>, 'value'>) {
  const field = useFieldContext<string>()
  const id = useId()
  const error = firstError(field.state.meta.errors)
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} name={field.name}>
      <textarea
        id={id}
        name={field.name}
        value={field.state.value}
        onChange={(event) => field.handleChange(event.target.value)}
        onBlur={field.handleBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={cn(
          'min-h-24 w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-sm shadow-xs outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-[invalid=true]:border-destructive',
          className,
        )}
        {...props}
      />
    </FieldFrame>
  )
}

function SelectField({ label, hint, children, ...props }: FieldProps & Omit<React.ComponentProps<'select'>, 'value'>) {
  const field = useFieldContext<string>()
  const id = useId()
  const error = firstError(field.state.meta.errors)
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} name={field.name}>
      <NativeSelect
        id={id}
        name={field.name}
        value={field.state.value}
        onChange={(event) => field.handleChange(event.target.value)}
        onBlur={field.handleBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        {...props}
      >
        {children}
      </NativeSelect>
    </FieldFrame>
  )
}

/** A yes/no setting: the checkbox, its label beside it, and a hint below. */
function CheckboxField({
  label,
  hint,
  ...props
}: FieldProps & Omit<React.ComponentProps<'input'>, 'checked' | 'type'>) {
  const field = useFieldContext<boolean>()
  const id = useId()
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        name={field.name}
        checked={field.state.value}
        onChange={(event) => field.handleChange(event.target.checked)}
        onBlur={field.handleBlur}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className="mt-0.5 size-4 shrink-0 accent-primary disabled:opacity-50"
        {...props}
      />
      <div className="grid gap-0.5">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        {hint ? (
          <p id={`${id}-hint`} className="text-xs text-muted-foreground">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  )
}

/** The form's submit button: disabled while the form is being sent, with a label saying so. */
function SubmitButton({ children, pendingLabel }: { children: ReactNode; pendingLabel: string }) {
  const form = useFormContext()
  return (
    <form.Subscribe selector={(state) => state.isSubmitting}>
      {(submitting) => (
        <Button type="submit" disabled={submitting}>
          {submitting ? pendingLabel : children}
        </Button>
      )}
    </form.Subscribe>
  )
}

export const { useAppForm } = createFormHook({
  fieldContext,
  formContext,
  fieldComponents: { TextField, TextAreaField, SelectField, CheckboxField },
  formComponents: { SubmitButton },
})

/**
 * Shows a failed call's field errors (the server's schema, or a rule only the server knows, such as a taken ISBN)
 * beside their fields. Returns false when the error names no field the form has, so the caller shows a toast.
 */
export function showServerFieldErrors(form: AnyFormApi, error: unknown, fields: readonly string[]): boolean {
  let shown = false
  for (const [field, messages] of Object.entries(fieldErrorsOf(error))) {
    const message = messages?.[0]
    if (!message || !fields.includes(field)) continue
    form.setFieldMeta(field, (meta) => ({ ...meta, errorMap: { ...meta.errorMap, onSubmit: message } }))
    shown = true
  }
  return shown
}
