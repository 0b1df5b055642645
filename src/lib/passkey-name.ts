/** The longest name a passkey may get; the Account form and the server (src/server/auth/passkey-names.ts) check it. */
export const passkeyNameMaxLength = 64
