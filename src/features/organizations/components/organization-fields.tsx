import { useState } from 'react'
import { FormField } from '#/components/form-field'
import { organizationLimits, slugify } from '#/lib/organization-rules'
import { m } from '#/paraglide/messages'

export interface OrganizationFieldValues {
  name: string
  slug: string
  logo: string
}

/**
 * Name, slug and logo. The slug follows the name (lowercase Latin letters, digits, hyphens) until it is edited by
 * hand; a name without Latin letters (e.g. Chinese) leaves it to the user.
 */
export function OrganizationFields({
  initial,
  errors,
}: {
  initial?: OrganizationFieldValues
  errors: Partial<Record<keyof OrganizationFieldValues, string>>
}) {
  const [name, setName] = useState(initial?.name ?? '')
  const [slug, setSlug] = useState(initial?.slug ?? '')
  const [slugEdited, setSlugEdited] = useState(initial !== undefined)
  return (
    <>
      <FormField
        label={m.org_name_label()}
        name="name"
        value={name}
        maxLength={organizationLimits.nameMax}
        autoComplete="organization"
        onChange={(event) => {
          setName(event.target.value)
          if (!slugEdited) setSlug(slugify(event.target.value))
        }}
        error={errors.name}
      />
      <div className="grid gap-1">
        <FormField
          label={m.org_slug_label()}
          name="slug"
          value={slug}
          maxLength={organizationLimits.slugMax}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => {
            setSlug(event.target.value)
            setSlugEdited(true)
          }}
          error={errors.slug}
        />
        <p className="text-xs text-muted-foreground">{m.org_slug_hint()}</p>
      </div>
      <FormField
        label={m.org_logo_label()}
        name="logo"
        type="url"
        defaultValue={initial?.logo ?? ''}
        placeholder="https://"
        autoComplete="off"
        error={errors.logo}
      />
    </>
  )
}

/** The three fields of a submitted form. */
export function readOrganizationFields(form: FormData): OrganizationFieldValues {
  return {
    name: String(form.get('name') ?? ''),
    slug: String(form.get('slug') ?? ''),
    logo: String(form.get('logo') ?? ''),
  }
}
