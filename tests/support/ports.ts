/**
 * The fixed ports of the servers and proxies that tests start. Test files run in parallel, so two files that pick
 * the same port fail each other at random: a CI run failed the full-disk test because the job-queue fault test had
 * taken its port. Every fixed port is named here, once; `tests/unit/test-ports.test.ts` keeps it that way.
 */
export const testPorts = {
  productionServer: 3297,
  analyticsShutdown: 3298,
  signInThrottle: 3400,
  oneAddress: 3436,
  embeddedKilledFirst: 3442,
  embeddedKilledSecond: 3443,
  postgresAwayProxy: 3445,
  postgresAwayServer: 3446,
  diskFull: 3447,
  queueStartProxy: 3451,
  queueStartServer: 3452,
  docsSearchFuzz: 3449,
  webConcurrencyPostgres: 3461,
  webConcurrencyEmbedded: 3462,
  severalServersProxy: 3480,
  severalServers: [3481, 3482, 3483],
  severalServersRedisProxy: 3484,
  tracesReceiver: 3491,
  tracesApp: 3492,
  shutdownEmbedded: 3410,
  shutdownPostgres: 3411,
  shutdownSeveral: 3412,
  conformanceHttp: [3420, 3421],
  conformanceFeeds: 3422,
  assistantSilentProvider: 3426,
  conformanceMcp: 3425,
  // scripts/minimal-kit.ts: the end-to-end server of a kit (tests/e2e/server.ts) and what it starts beside the app;
  // the DNS responder's control port is the next one.
  minimalKitServer: 3530,
  minimalKitSmtp: 3531,
  minimalKitDns: [3532, 3533],
  minimalKitAi: 3534,
} as const
