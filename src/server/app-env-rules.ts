/**
 * What an app says of its environment variables beyond each one's own validation (`export const envRules` beside
 * `env` in its server/env.ts), checked by the core with its own rules when a server starts (src/server/env.ts).
 */
export interface AppEnvRules<Name extends string = string> {
  /** Set both or neither: a key without its secret is a half-configured service. */
  together?: readonly (readonly [Name, Name])[]
  /** The first means nothing without the second. */
  needs?: readonly (readonly [Name, Name])[]
  /**
   * Of all the installed apps' variables that name the same group, one at most may be set: two payment providers
   * configured at once would leave it to chance which one a buyer meets.
   */
  onlyOneOf?: { group: string; variable: Name }
  /** Further checks across its variables, each problem a line naming the variable. */
  check?: (parsed: Record<Name, unknown>) => string[]
}

export function defineEnvRules<Shape extends object>(
  _env: Shape,
  rules: AppEnvRules<Extract<keyof Shape, string>>,
): AppEnvRules {
  return rules as AppEnvRules
}
