import { sql, type Kysely } from 'kysely'

// The operator team (docs/design.md §11d): people with roles instead of one shared token, their
// second factor and API tokens, and the append-only audit log every operator write appends to.
const ROLES = `'owner', 'admin', 'finance', 'support', 'viewer'`

// The tables an operator's write changes, each with the columns that name its row in the log.
const AUDITED_TABLES: Record<string, string> = {
  accounts: 'id',
  api_keys: 'id',
  ledger_entries: 'id',
  categories: 'id',
  products: 'id',
  items: 'id',
  licenses: 'id',
  providers: 'code',
  item_sources: 'item_id,provider,code',
  pricing_rules: 'id',
  margin_settings: 'only_row',
  supplier_syncs: 'id',
  supplier_changes: 'id',
  payment_channels: 'code',
  topups: 'id',
  orders: 'id',
  order_lines: 'id',
  dispatches: 'id',
  stock_locks: 'id',
  webhook_settings: 'account_id',
  webhook_deliveries: 'id',
  reseller_users: 'id',
  operators: 'id',
  operator_tokens: 'id',
}

const statements = [
  `CREATE TABLE operators (
    id bigserial PRIMARY KEY,
    email text NOT NULL UNIQUE CHECK (email = lower(email)),
    name text NOT NULL,
    role text NOT NULL CHECK (role IN (${ROLES})),
    status text NOT NULL DEFAULT 'invited' CHECK (status IN ('invited', 'active', 'removed')),
    password_hash text,
    invite_hash text UNIQUE,
    invite_expires_at timestamptz,
    totp_secret_enc text,
    totp_enabled_at timestamptz,
    totp_last_step bigint,
    recovery_code_hashes text[] NOT NULL DEFAULT '{}',
    -- A sign-in older than this is over: a role change, a removal or a reset second factor moves it.
    sessions_valid_from timestamptz NOT NULL DEFAULT now(),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  // 'op_' + 32 random bytes; only the SHA-256 is kept. A token acts with its operator's current role.
  `CREATE TABLE operator_tokens (
    id bigserial PRIMARY KEY,
    operator_id bigint NOT NULL REFERENCES operators(id),
    name text NOT NULL,
    token_hash text NOT NULL UNIQUE,
    token_prefix text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    revoked_at timestamptz
  )`,
  `CREATE INDEX operator_tokens_operator_idx ON operator_tokens (operator_id) WHERE revoked_at IS NULL`,
  // A console session is an operator's (or, without one, the admin token's); 'second_factor' and
  // 'enrol' are a sign-in past its password still waiting for the code or the enrolment.
  `ALTER TABLE console_sessions ADD COLUMN operator_id bigint REFERENCES operators(id)`,
  `ALTER TABLE console_sessions ADD COLUMN stage text NOT NULL DEFAULT 'signed_in' CHECK (stage IN ('signed_in', 'second_factor', 'enrol'))`,
  `CREATE INDEX console_sessions_operator_idx ON console_sessions (operator_id) WHERE operator_id IS NOT NULL`,
  // Failed sign-ins per (email typed, address), hashed: a guesser elsewhere never locks the right person out.
  `CREATE TABLE operator_sign_in_failures (
    key_hash text PRIMARY KEY,
    failures integer NOT NULL DEFAULT 0,
    locked_until timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX operator_sign_in_failures_updated_idx ON operator_sign_in_failures (updated_at)`,
  // Dashboard owners may turn on the same second factor for their own sign-in.
  `ALTER TABLE reseller_users ADD COLUMN totp_secret_enc text, ADD COLUMN totp_enabled_at timestamptz,
    ADD COLUMN totp_last_step bigint, ADD COLUMN recovery_code_hashes text[] NOT NULL DEFAULT '{}'`,
  `ALTER TABLE reseller_sessions ADD COLUMN stage text NOT NULL DEFAULT 'signed_in' CHECK (stage IN ('signed_in', 'second_factor', 'enrol'))`,
  `CREATE TABLE audit_log (
    id bigserial PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT now(),
    actor_id bigint,
    actor text NOT NULL,
    role text NOT NULL,
    client_ip text,
    request_id text,
    action text NOT NULL,
    target_type text NOT NULL,
    target_id text NOT NULL,
    change text NOT NULL CHECK (change IN ('insert', 'update', 'delete')),
    changes jsonb NOT NULL
  )`,
  `CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, id)`,
  `CREATE INDEX audit_log_target_idx ON audit_log (target_type, target_id, id)`,
  `CREATE INDEX audit_log_action_idx ON audit_log (action, id)`,
  `CREATE INDEX audit_log_at_idx ON audit_log (at)`,
  // Placeholders: modules/audit/audit.sql replaces both bodies right after the migrations.
  `CREATE FUNCTION audit_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`,
  `CREATE FUNCTION refuse_audit_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`,
  `CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_audit_change()`,
  `CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION refuse_audit_change()`,
  // Fires only while an operator's write has named itself (db/acting.ts): other writes pay one setting read.
  ...Object.entries(AUDITED_TABLES).map(
    ([table, key]) =>
      `CREATE TRIGGER ${table}_audit AFTER INSERT OR UPDATE OR DELETE ON ${table} FOR EACH ROW
        WHEN (current_setting('audit.action', true) <> '') EXECUTE FUNCTION audit_row('${key}')`,
  ),
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
