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

/** Accounts by id, optionally those whose name or email contains `search` (or whose id it is). */
export async function listAccounts(db: Database, q: { page: number; perPage: number; search?: string }) {
  let query = db.selectFrom('accounts')
  if (q.search) {
    const pattern = `%${q.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`
    const byId = /^\d{1,15}$/.test(q.search) ? [Number(q.search)] : []
    query = query.where((eb) =>
      eb.or([eb('name', 'ilike', pattern), eb('email', 'ilike', pattern), ...byId.map((id) => eb('id', '=', id))]),
    )
  }
  const [rows, count] = await Promise.all([
    query
      .select(['id', 'name', 'email', 'status', 'balance', 'max_active_locks', 'ip_allowlist', 'created_at', 'updated_at'])
      .orderBy('id')
      .limit(q.perPage)
      .offset((q.page - 1) * q.perPage)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: count.n }
}
