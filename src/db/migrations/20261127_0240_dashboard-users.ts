import { sql, type Kysely } from 'kysely'

// The reseller dashboard (docs/design.md §13): the people of an account, their invites and sign-ins.
const statements = [
  // One person, one account: the email (kept lower-case) is unique store-wide, so a sign-in names one user.
  // A pending invite has invite_hash and no password yet; only SHA-256 of the link's token is kept.
  `CREATE TABLE reseller_users (
    id bigserial PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts (id),
    email text NOT NULL UNIQUE CHECK (email = lower(email)),
    role text NOT NULL CHECK (role IN ('owner', 'staff')),
    password_hash text,
    invite_hash text UNIQUE,
    invite_expires_at timestamptz,
    failed_sign_ins integer NOT NULL DEFAULT 0,
    locked_until timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX reseller_users_account_idx ON reseller_users (account_id)`,
  // Server-side, so a sign-out or a removed user ends every session at once (ON DELETE CASCADE).
  `CREATE TABLE reseller_sessions (
    token_hash text PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES reseller_users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
  )`,
  `CREATE INDEX reseller_sessions_user_idx ON reseller_sessions (user_id)`,
  `CREATE INDEX reseller_sessions_expiry_idx ON reseller_sessions (expires_at)`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
