import type { BetterAuthClientPlugin } from 'better-auth/client'

const authenticateOptionsPath = '/passkey/generate-authenticate-options'

let autofillChallenge: Promise<void> = Promise.resolve()
let releaseAutofillChallenge: () => void = () => {}

/**
 * Better Auth keeps one passkey challenge per browser, in a cookie that each generate-authenticate-options answer
 * replaces. The sign-in page asks for one for the autofill ceremony as it loads; if the button's request overtook
 * it, the late autofill answer would replace the button's challenge and the button's sign-in would fail. So the
 * autofill ceremony announces its request here, and the button waits until it is answered.
 */
export function autofillChallengeRequested() {
  releaseAutofillChallenge()
  autofillChallenge = new Promise((resolve) => {
    releaseAutofillChallenge = resolve
  })
}

/** The autofill ceremony got its challenge, or will not ask for one after all. */
export function autofillChallengeSettled() {
  releaseAutofillChallenge()
}

/** Resolves once no autofill challenge request is in flight. */
export function untilAutofillChallengeSettled(): Promise<void> {
  return autofillChallenge
}

/** Client plugin: notices the answer to every generate-authenticate-options request. */
export const passkeyChallengeOrder = {
  id: 'hatch-passkey-challenge-order',
  fetchPlugins: [
    {
      id: 'hatch-passkey-challenge-order',
      name: 'Passkey challenge order',
      hooks: {
        onResponse(context) {
          if (context.response.url.includes(authenticateOptionsPath)) autofillChallengeSettled()
        },
      },
    },
  ],
} satisfies BetterAuthClientPlugin
