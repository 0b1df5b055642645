// What an app's section of the landing page may use (docs/decisions/042): whether the visitor is signed in, asked
// once for the whole page.

export { useSignedIn } from './components/use-signed-in'
