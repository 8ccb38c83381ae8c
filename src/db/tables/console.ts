import type { Generated } from 'kysely'
import type { SignInStage } from './team.js'

/** Operator console sign-ins; only a hash of each session token is kept. */
export interface ConsoleSessionsTable {
  token_hash: string
  created_at: Generated<Date>
  expires_at: Date
  /** The operator signed in; null for a sign-in with the admin token. */
  operator_id: number | null
  stage: Generated<SignInStage>
}
