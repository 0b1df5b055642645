import { type Database, pingDatabase } from './db/client'

const pingTimeoutMs = 3_000

/** 200 after a real database round trip; 503 with the reason when the database cannot answer. */
export async function checkHealth(db: Database): Promise<Response> {
  const headers = { 'Cache-Control': 'no-store' }
  try {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`database did not answer within ${pingTimeoutMs} ms`)), pingTimeoutMs)
    })
    await Promise.race([pingDatabase(db), timeout]).finally(() => clearTimeout(timer))
    return Response.json({ status: 'ok' }, { headers })
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return Response.json({ status: 'error', reason: `database unreachable: ${reason}` }, { status: 503, headers })
  }
}
