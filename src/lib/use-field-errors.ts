import { useState } from 'react'
import type { ZodType } from 'zod'
import { translateMessage } from '#/lib/errors'

/** Validates form values with a zod schema and keeps the first translated message per field. */
export function useFieldErrors<Values>(schema: ZodType<Values>) {
  const [errors, setErrors] = useState<Partial<Record<keyof Values & string, string>>>({})
  const validate = (values: unknown): Values | null => {
    const result = schema.safeParse(values)
    if (result.success) {
      setErrors({})
      return result.data
    }
    const next: Partial<Record<string, string>> = {}
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? '')
      next[field] ??= translateMessage(issue.message)
    }
    setErrors(next as Partial<Record<keyof Values & string, string>>)
    return null
  }
  return { errors, validate }
}
