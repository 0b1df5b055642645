import { type AnyFormApi, createFormHook, createFormHookContexts, revalidateLogic } from '@tanstack/react-form'
import { type FormEvent, type ReactNode, useEffect, useId, useRef } from 'react'
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

/**
 * What the reader typed, picked or ticked before the page hydrated sits in the server-rendered control, but not in the
 * form's state (React keeps the DOM value while hydrating and fires no change for it). Adopted once on mount, or the
 * form would submit empty fields that look filled.
 */
function useAdoptValueSetBeforeHydration<Element extends HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(
  read: (element: Element) => unknown,
) {
  const field = useFieldContext<unknown>()
  const ref = useRef<Element>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, at hydration; later changes arrive through onChange.
  useEffect(() => {
    if (!ref.current) return
    const shown = read(ref.current)
    if (shown !== field.state.value) field.handleChange(shown)
  }, [])
  return ref
}

const textOf = (element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement) => element.value
const tickOf = (element: HTMLInputElement) => element.checked

function TextField({ label, hint, ...inputProps }: FieldProps & Omit<React.ComponentProps<'input'>, 'value'>) {
  const field = useFieldContext<string>()
  const ref = useAdoptValueSetBeforeHydration<HTMLInputElement>(textOf)
  const id = useId()
  const error = firstError(field.state.meta.errors)
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} name={field.name}>
      <Input
        ref={ref}
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
  const ref = useAdoptValueSetBeforeHydration<HTMLTextAreaElement>(textOf)
  const id = useId()
  const error = firstError(field.state.meta.errors)
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} name={field.name}>
      <textarea
        ref={ref}
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
  const ref = useAdoptValueSetBeforeHydration<HTMLSelectElement>(textOf)
  const id = useId()
  const error = firstError(field.state.meta.errors)
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} name={field.name}>
      <NativeSelect
        ref={ref}
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

/** A yes/no setting: the checkbox, its label beside it, and a hint or its error (one that must be ticked) below. */
function CheckboxField({
  label,
  hint,
  ...props
}: FieldProps & Omit<React.ComponentProps<'input'>, 'checked' | 'type'>) {
  const field = useFieldContext<boolean>()
  const ref = useAdoptValueSetBeforeHydration<HTMLInputElement>(tickOf)
  const id = useId()
  const error = firstError(field.state.meta.errors)
  return (
    <div className="flex items-start gap-3">
      <input
        ref={ref}
        id={id}
        type="checkbox"
        name={field.name}
        checked={field.state.value}
        onChange={(event) => field.handleChange(event.target.checked)}
        onBlur={field.handleBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className="mt-0.5 size-4 shrink-0 accent-primary disabled:opacity-50"
        {...props}
      />
      <div className="grid gap-0.5">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        {hint && !error ? (
          <p id={`${id}-hint`} className="text-xs text-muted-foreground">
            {hint}
          </p>
        ) : null}
        {error ? (
          <p id={`${id}-error`} className="text-sm text-destructive" data-testid={`error-${field.name}`}>
            {error}
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

// `withForm` lends a form's fields to a component of their own when two forms share them (organization name and slug).
const { useAppForm: useFormWithOurFields, withForm } = createFormHook({
  fieldContext,
  formContext,
  fieldComponents: { TextField, TextAreaField, SelectField, CheckboxField },
  formComponents: { SubmitButton },
})

/**
 * Every form checks its schema (`validators: { onDynamic: schema }`) when first sent, then on every change: an error
 * goes as soon as it is put right ("reward early, punish late"). A plain `onSubmit` schema is not enough: TanStack
 * Form 1.33 stops a second submit on the first submit's errors without checking again, so errors that were put right
 * disappear and the ones still wrong are never shown (TanStack/form#2248).
 */
const useAppForm: typeof useFormWithOurFields = (options) =>
  useFormWithOurFields({ validationLogic: revalidateLogic(), ...options })

export { useAppForm, withForm }

/**
 * A form element's onSubmit: TanStack Form checks the fields and sends them. The element keeps `method="post"` and
 * its fields' names, so it is still a real form to the browser and to assistive technology.
 */
export function sendWith(form: { handleSubmit: () => Promise<unknown> }) {
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    // A dialog's form may sit inside a page's form in the React tree (portals bubble through it).
    event.stopPropagation()
    void form.handleSubmit()
  }
}

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
