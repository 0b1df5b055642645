import type { Database } from '../db/client'

export interface TrpcContext {
  db: Database
  headers: Headers
}

export function createTrpcContext(options: { db: Database; headers: Headers }): TrpcContext {
  return { db: options.db, headers: options.headers }
}
