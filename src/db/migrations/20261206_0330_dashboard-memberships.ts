import { sql, type Kysely } from 'kysely'

// The reseller dashboard (docs/design.md §13), so that nothing answers differently for emails that exist:
// sign-in failures are counted per email typed, existing or not, and an email may be a user of several
// accounts (one row each, its own invite and password), so inviting it never finds it "taken".
const statements = [
  // Keyed by SHA-256 of the email as typed (lower-case): the emails strangers try are not kept.
  `CREATE TABLE reseller_sign_in_failures (
    email_hash text PRIMARY KEY,
    failures integer NOT NULL DEFAULT 0,
    locked_until timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX reseller_sign_in_failures_updated_idx ON reseller_sign_in_failures (updated_at)`,
  `INSERT INTO reseller_sign_in_failures (email_hash, failures, locked_until)
    SELECT encode(sha256(convert_to(email, 'UTF8')), 'hex'), failed_sign_ins, locked_until FROM reseller_users
    WHERE failed_sign_ins > 0 OR locked_until > now()`,
  `ALTER TABLE reseller_users DROP COLUMN failed_sign_ins, DROP COLUMN locked_until`,
  `ALTER TABLE reseller_users DROP CONSTRAINT reseller_users_email_key`,
  `ALTER TABLE reseller_users ADD CONSTRAINT reseller_users_account_email_key UNIQUE (account_id, email)`,
  `CREATE INDEX reseller_users_email_idx ON reseller_users (email)`,
  // The users a sign-in proved (the email's accounts whose password matched): the session may switch among them.
  `ALTER TABLE reseller_sessions ADD COLUMN user_ids bigint[] NOT NULL DEFAULT '{}'`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
