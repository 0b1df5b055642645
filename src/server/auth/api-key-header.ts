/** Where callers of the API send their key. */
export const apiKeyHeader = 'x-api-key'
