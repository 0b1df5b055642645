/**
 * Never settles. A form's submit handler awaits it once it has sent the browser to another page (a full page load),
 * so the form stays submitting (its button disabled and saying so) until that page replaces this one, rather than
 * offering to send the form again while the next page loads.
 */
export function staySubmitting(): Promise<never> {
  return new Promise<never>(() => {})
}
