import type { Database, PreparedStatement } from '../../db/database.js'

export type AuthenticatedAccount = {
  id: number
  status: 'active' | 'suspended'
  ip_allowlist: string[]
}

// Every reseller request runs this: a named prepared statement on PostgreSQL.
const AUTHENTICATE = `SELECT a.id, a.status, a.ip_allowlist FROM api_keys k JOIN accounts a ON a.id = k.account_id
  WHERE k.key_hash = $1 AND k.revoked_at IS NULL`

export async function findAccountByKeyHash(prepared: PreparedStatement, keyHash: string): Promise<AuthenticatedAccount | undefined> {
  const [account] = await prepared<AuthenticatedAccount>('authenticate', AUTHENTICATE, [keyHash])
  return account
}

export async function findAccount(db: Database, id: number) {
  return db
    .selectFrom('accounts')
    .select(['id', 'name', 'email', 'status', 'balance', 'max_active_locks', 'ip_allowlist', 'created_at', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirst()
}
