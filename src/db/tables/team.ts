import type { ColumnType, Generated } from 'kysely'
import type { Id, Timestamp } from './columns.js'

export type OperatorRole = 'owner' | 'admin' | 'finance' | 'support' | 'viewer'
/** Where a sign-in stands: done, or past its password and waiting for the code or the enrolment. */
export type SignInStage = 'signed_in' | 'second_factor' | 'enrol'

/** A second factor's columns, the same on operators and dashboard users (team/second-factor.queries.ts serves both). */
export interface SecondFactorColumns {
  /** The TOTP secret sealed under APP_KEY (vault.ts). */
  totp_secret_enc: string | null
  totp_enabled_at: Date | null
  /** The last 30-second step whose code was accepted: a code is good once. */
  totp_last_step: number | null
  /** SHA-256 of each unused recovery code. */
  recovery_code_hashes: Generated<string[]>
}

/** The people who run the store (docs/design.md §11d). Never deleted: a leaver is `removed`. */
export interface OperatorsTable extends SecondFactorColumns {
  id: Id
  email: string
  name: string
  role: OperatorRole
  status: Generated<'invited' | 'active' | 'removed'>
  password_hash: string | null
  invite_hash: string | null
  invite_expires_at: Date | null
  /** Console sessions started before this are over (a role change, a removal, a reset second factor). */
  sessions_valid_from: Generated<Date>
  /** The console's language they last switched to; null: each browser's own choice. */
  console_lang: Generated<'en' | 'id' | null>
  created_at: Generated<Date>
  updated_at: Timestamp
}

/** Per-person admin API tokens (`op_…`); only the SHA-256 is kept. */
export interface OperatorTokensTable {
  id: Id
  operator_id: number
  name: string
  token_hash: string
  /** The first characters, to tell tokens apart in a list. */
  token_prefix: string
  created_at: Generated<Date>
  last_used_at: Date | null
  revoked_at: Date | null
}

/** A sign-in failure count and the lock it leads to, the same for the console and the dashboard (team/sign-in-lock.queries.ts). */
export interface SignInFailureColumns {
  failures: Generated<number>
  locked_until: Date | null
  updated_at: Generated<Date>
}

/** Failed console sign-ins per (email typed, client address), keyed by their SHA-256. */
export interface OperatorSignInFailuresTable extends SignInFailureColumns {
  key_hash: string
}

/** One row per row an operator's write changed; appended by a trigger, never updated or deleted. */
export interface AuditLogTable {
  id: Generated<number>
  at: Generated<Date>
  /** The operator; null for the admin token and the system actors. */
  actor_id: number | null
  /** The operator's email, "admin token", or a system actor's name. */
  actor: string
  role: string
  client_ip: string | null
  request_id: string | null
  /** The operation id of the route (or the console action's). */
  action: string
  target_type: string
  target_id: string
  change: 'insert' | 'update' | 'delete'
  /** `{ column: { before, after } }`; secrets as "[redacted]". */
  changes: ColumnType<Record<string, { before: unknown; after: unknown }>, never, never>
}
