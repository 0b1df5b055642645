import { z } from '#/lib/zod'

/** Single sign-on's variables, validated with the core's when a server starts (src/server/env.ts). */
export const env = {
  /** Lets SSO metadata URLs, OpenID issuers and their endpoints be private addresses: local development and tests. */
  SSO_ALLOW_PRIVATE: z
    .enum(['0', '1', 'true', 'false'], { error: 'must be 1, 0, true or false' })
    .default('0')
    .transform((value) => value === '1' || value === 'true'),
  /** DNS servers the SSO domain check asks (`host` or `host:port`, comma-separated); the system's by default. */
  SSO_DNS_SERVERS: z
    .string()
    .trim()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((server) => server.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z
          .string()
          .regex(
            /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:]+\])(?::\d{1,5})?$|^[0-9a-fA-F:]+$/,
            'must be IP addresses, each optionally with :port, separated by commas',
          ),
      ),
    ),
}
