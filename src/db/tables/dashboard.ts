import type { Generated } from 'kysely'
import type { Id, Timestamp } from './columns.js'
import type { SecondFactorColumns, SignInFailureColumns, SignInStage } from './team.js'

/** The people of a reseller account who sign in to the dashboard (docs/design.md §13); an email may have a row in several accounts. */
export interface ResellerUsersTable extends SecondFactorColumns {
  id: Id
  account_id: number
  email: string
  role: 'owner' | 'staff'
  password_hash: string | null
  invite_hash: string | null
  invite_expires_at: Date | null
  created_at: Generated<Date>
  updated_at: Timestamp
}

/** Dashboard sign-ins; only a hash of each session token is kept. */
export interface ResellerSessionsTable {
  token_hash: string
  user_id: number
  created_at: Generated<Date>
  expires_at: Date
  /** The users the sign-in proved (the email's accounts whose password matched); `user_id` is one of them. */
  user_ids: Generated<number[]>
  stage: Generated<SignInStage>
}

/** Failed sign-ins per email typed (its SHA-256), existing or not, and the lock they lead to. */
export interface ResellerSignInFailuresTable extends SignInFailureColumns {
  email_hash: string
}
