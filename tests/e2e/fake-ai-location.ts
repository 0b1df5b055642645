/** Where the end-to-end server (tests/e2e/server.ts) runs its scripted OpenAI-compatible provider. */
export const fakeAiPort = Number(process.env.E2E_AI_PORT ?? 4611)
export const fakeAiUrl = `http://127.0.0.1:${fakeAiPort}`
