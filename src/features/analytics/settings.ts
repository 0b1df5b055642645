import { defineAppSettings } from '#/lib/app-settings'
import { z } from '#/lib/zod'
import { m } from '#/paraglide/messages'

/** The switch in Configuration: off, pages load no script and beacons are answered without being counted. */
export const settings = defineAppSettings({
  name: 'analytics',
  title: m.config_section_analytics,
  description: m.config_section_analytics_hint,
  fields: {
    enabled: {
      schema: z.boolean(),
      default: true,
      label: m.config_analytics_enabled,
      hint: m.config_analytics_enabled_hint,
    },
  },
})
