const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const

/** A size as people read it (`4.2 MB`, `100 GB`), in binary steps as storage quotas count, in the page's language. */
export function formatFileSize(bytes: number, intlLocale: string): string {
  let value = Math.max(0, bytes)
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  // Intl names bytes in words in some languages ("512 byte"); B is read the same everywhere.
  if (unit === 0) return `${new Intl.NumberFormat(intlLocale).format(value)} B`
  return new Intl.NumberFormat(intlLocale, {
    style: 'unit',
    unit: units[unit],
    unitDisplay: 'short',
    maximumFractionDigits: value < 10 && unit > 0 ? 1 : 0,
  }).format(value)
}
