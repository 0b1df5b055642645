// Checked in the page before anything is sent, so a file the server would refuse is refused at once rather than after
// its whole upload; the server checks again, by the bytes.

/** Whether the picked file is one of `types`: by the type the browser gives it, or its extension when it gives none. */
export function isOfType(file: File, types: Readonly<Record<string, readonly string[]>>): boolean {
  if (file.type) return Object.hasOwn(types, file.type)
  const extension = /\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? ''
  return Object.values(types).some((extensions) => extensions.includes(extension))
}
