import { addFeatureMessages } from '#/lib/errors'
import { signInApps } from '#/sign-in-apps.gen'

// The installed apps' refusals in words, on the pages that may show them (sign-in and sign-up).
for (const app of signInApps) addFeatureMessages({ ...app.authErrorMessages })

/** The installed apps' ways to sign in (single sign-on), drawn among the alternatives to the password form. */
export const appSignInAlternatives = signInApps.flatMap((app) =>
  (app.alternatives ?? []).map((alternative, index) => ({ ...alternative, key: `${app.name}-${index}` })),
)
