import type { Generated } from 'kysely'

/** Operator console sign-ins; only a hash of each session token is kept. */
export interface ConsoleSessionsTable {
  token_hash: string
  created_at: Generated<Date>
  expires_at: Date
}
