import type { Generated } from 'kysely'
import type { Id, Timestamp } from './columns.js'

/** The people of a reseller account who sign in to the dashboard (DESIGN §13). */
export interface ResellerUsersTable {
  id: Id
  account_id: number
  email: string
  role: 'owner' | 'staff'
  password_hash: string | null
  invite_hash: string | null
  invite_expires_at: Date | null
  failed_sign_ins: Generated<number>
  locked_until: Date | null
  created_at: Generated<Date>
  updated_at: Timestamp
}

/** Dashboard sign-ins; only a hash of each session token is kept. */
export interface ResellerSessionsTable {
  token_hash: string
  user_id: number
  created_at: Generated<Date>
  expires_at: Date
}
