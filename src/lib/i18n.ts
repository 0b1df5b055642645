import { getLocale, type Locale, locales } from '#/paraglide/runtime'

/** Each language named in itself, as language pickers conventionally show them. */
export const localeNames: Record<Locale, string> = { en: 'English', zh: '中文' }

/** BCP 47 tags for Intl formatting. */
export const intlLocales: Record<Locale, string> = { en: 'en-US', zh: 'zh-CN' }

export function currentIntlLocale(): string {
  return intlLocales[getLocale()]
}

export { getLocale, type Locale, locales }
