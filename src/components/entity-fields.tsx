import type { CellContext, RowData } from '@tanstack/react-table'
import type { ComponentProps, ComponentType, ReactNode } from 'react'
import type { DetailsField } from '#/components/details-layout'
import { listColumnHelper, type listTableFeatures } from '#/components/list-table'
import type { Entity, EntityField, EntityFields } from '#/lib/entity'
import { columnLabelOf, isColumn, isHideable, isInDetails, keysWhere, textOf } from '#/lib/entity'
import { currentIntlLocale } from '#/lib/i18n'

// The screens' side of an entity's definition (src/lib/entity.ts): its form inputs, list columns and details rows.

/** A value as a reader sees it: a list's entries joined, a choice's name, an address as a link; null when empty. */
export function shownValueOf(field: EntityField, value: unknown): ReactNode {
  const text = textOf(value)
  if (!text) return null
  if (field.kind === 'choice') return field.options?.name(text) ?? text
  if (field.kind === 'url')
    return (
      <a href={text} rel="noreferrer noopener" target="_blank" className="underline underline-offset-4">
        {text}
      </a>
    )
  if (field.kind === 'longText') return <span className="whitespace-pre-wrap">{text}</span>
  if (field.kind === 'integer') return <span className="tabular-nums">{text}</span>
  return text
}

interface FieldControls {
  TextField: ComponentType<{ label: string; hint?: string } & Omit<ComponentProps<'input'>, 'value'>>
  TextAreaField: ComponentType<{ label: string; hint?: string } & Omit<ComponentProps<'textarea'>, 'value'>>
  SelectField: ComponentType<{ label: string; hint?: string } & Omit<ComponentProps<'select'>, 'value'>>
}

/** The input a field's kind takes, inside the form's `AppField` (its controls read the field from there). */
export function EntityInput({ field, controls }: { field: EntityField; controls: FieldControls }) {
  const label = field.label()
  const hint = field.hint?.()
  switch (field.kind) {
    case 'longText':
      return <controls.TextAreaField label={label} hint={hint} rows={5} />
    case 'choice':
      return (
        <controls.SelectField label={label} hint={hint}>
          <option value="">{field.options?.none()}</option>
          {(field.options?.codes ?? [])
            .map((code) => ({ code, name: field.options?.name(code) ?? code }))
            .sort((a, b) => a.name.localeCompare(b.name, currentIntlLocale()))
            .map((option) => (
              <option key={option.code} value={option.code}>
                {option.name}
              </option>
            ))}
        </controls.SelectField>
      )
    case 'integer':
      return <controls.TextField label={label} hint={hint} inputMode="numeric" />
    case 'url':
      return <controls.TextField label={label} hint={hint} type="url" placeholder="https://" />
    default:
      return <controls.TextField label={label} hint={hint} autoComplete="off" />
  }
}

/**
 * The form's fields in the definition's order, short ones side by side (three to a row on a wide screen).
 * `renderField` puts one field's `EntityInput` inside the form's `AppField`.
 */
export function EntityFormFields<Fields extends EntityFields>({
  entity,
  renderField,
}: {
  entity: Entity<Fields>
  renderField: (key: keyof Fields & string, field: EntityField) => ReactNode
}) {
  const groups: (keyof Fields & string)[][] = []
  for (const key of entity.keys) {
    const last = groups.at(-1)
    const short = entity.fields[key]?.short === true
    const lastShort = last !== undefined && last.length < 3 && entity.fields[last[0] ?? '']?.short === true
    if (short && lastShort) last.push(key)
    else groups.push([key])
  }
  return groups.map((group) =>
    group.length === 1 && !entity.fields[group[0] ?? '']?.short ? (
      renderField(group[0] as keyof Fields & string, entity.fields[group[0] ?? ''] as EntityField)
    ) : (
      <div key={group.join()} className="grid gap-4 sm:grid-cols-3">
        {group.map((key) => renderField(key, entity.fields[key] as EntityField))}
      </div>
    ),
  )
}

/** The details rows of a record: the fields shown there that hold something. */
export function entityDetailsFields<Fields extends EntityFields>(
  entity: Entity<Fields>,
  record: Record<keyof Fields, unknown>,
): DetailsField[] {
  return keysWhere(entity, isInDetails).flatMap((key) => {
    const field = entity.fields[key] as EntityField
    const value = shownValueOf(field, record[key])
    return value === null ? [] : [{ label: field.label(), value }]
  })
}

/** The columns a reader may hide, with their names. */
export function hideableEntityColumns<Fields extends EntityFields>(entity: Entity<Fields>) {
  return keysWhere(entity, isHideable).map((key) => [key, columnLabelOf(entity.fields[key] as EntityField)] as const)
}

/**
 * The list's columns for the definition's fields, in order; `cells` draws the ones that need more than the kind's
 * usual look (a title with its cover, tags as chips).
 */
export function entityColumns<Row extends RowData & Record<string, unknown>, Fields extends EntityFields>(
  entity: Entity<Fields>,
  cells: Partial<Record<keyof Fields, (info: CellContext<typeof listTableFeatures, Row, unknown>) => ReactNode>> = {},
) {
  const column = listColumnHelper<Row>()
  return keysWhere(entity, isColumn).map((key) => {
    const field = entity.fields[key] as EntityField
    const options = field.column || {}
    return column.accessor((row): unknown => row[key], {
      id: key,
      header: columnLabelOf(field),
      enableSorting: options.sortable === true,
      enableHiding: options.hideable !== false,
      cell: cells[key] ?? ((info) => shownValueOf(field, info.getValue())),
    })
  })
}
