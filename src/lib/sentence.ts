/**
 * A sentence that ends with a name the person typed: when the name brings its own full stop ("Acme Inc.", "Vol. 2."),
 * the sentence's stop is not doubled ("You left Acme Inc."). An ellipsis stays as it is.
 */
export function oneFinalStop(sentence: string): string {
  return sentence.replace(/(?<!\.)\.\.$/u, '.')
}
