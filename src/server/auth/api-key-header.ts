/** Where callers of the API send their key. */
export const apiKeyHeader = 'x-api-key'

/** Why a valid key is refused: its owner's domain must sign in through single sign-on (the SSO feature's guard). */
export const apiKeySsoRequiredCode = 'API_KEY_SSO_REQUIRED'
