import { getLocale, type Locale, locales } from '#/paraglide/runtime'

/** Each language named in itself, as language pickers conventionally show them. */
export const localeNames: Record<Locale, string> = { en: 'English', zh: '中文' }

/** BCP 47 tags for Intl formatting. */
export const intlLocales = { en: 'en-US', zh: 'zh-CN' } as const satisfies Record<Locale, string>

export function currentIntlLocale(): string {
  return intlLocales[getLocale()]
}

export { getLocale, type Locale, locales }
