import { formOptions } from '@tanstack/react-form'
import { organizationLimits, slugify } from '#/features/organizations/organization-names'
import { withForm } from '#/lib/form'
import { m } from '#/paraglide/messages'
import { organizationFormSchema } from '../organization-rules'

interface OrganizationFieldValues {
  name: string
  slug: string
}

/** What creating and editing an organization share: its two fields and the rules they are checked by. */
export const organizationFormOptions = formOptions({
  defaultValues: { name: '', slug: '' } as OrganizationFieldValues,
  validators: { onDynamic: organizationFormSchema },
})

/** Better Auth's refusals that are about the slug (`create` and `update` name a taken one differently). */
export const organizationFieldOfCode = {
  ORGANIZATION_ALREADY_EXISTS: 'slug',
  ORGANIZATION_SLUG_ALREADY_TAKEN: 'slug',
} as const

/**
 * Name and slug (the logo is uploaded on its own, in the settings). With `slugFollowsName` the slug follows the name
 * (lowercase Latin letters, digits, hyphens) until it is edited by hand; a name without Latin letters (e.g. Chinese)
 * leaves it to the user.
 */
export const OrganizationFields = withForm({
  ...organizationFormOptions,
  props: { slugFollowsName: false } as { slugFollowsName?: boolean },
  render: function OrganizationFieldsRender({ form, slugFollowsName }) {
    return (
      <>
        <form.AppField
          name="name"
          listeners={{
            onChange: ({ value }) => {
              // Typing in the slug marks it dirty; filling it in from here does not.
              if (slugFollowsName && !form.getFieldMeta('slug')?.isDirty)
                form.setFieldValue('slug', slugify(value), { dontUpdateMeta: true })
            },
          }}
        >
          {(field) => (
            <field.TextField
              label={m.org_name_label()}
              maxLength={organizationLimits.nameMax}
              autoComplete="organization"
            />
          )}
        </form.AppField>
        <form.AppField name="slug">
          {(field) => (
            <field.TextField
              label={m.org_slug_label()}
              hint={m.org_slug_hint()}
              maxLength={organizationLimits.slugMax}
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </form.AppField>
      </>
    )
  },
})
