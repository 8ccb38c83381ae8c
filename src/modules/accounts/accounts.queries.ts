import { sql } from 'kysely'
import type { Database, PreparedStatement, Trx } from '../../db/database.js'

export type AuthenticatedAccount = {
  id: number
  status: 'active' | 'suspended'
  ip_allowlist: string[]
  /** Its price level (docs/design.md §5d) and when it moved there (null: never moved). */
  price_level_id: number
  price_level_since: Date | null
}

// Every reseller request runs this: a named prepared statement on PostgreSQL.
const AUTHENTICATE = `SELECT a.id, a.status, a.ip_allowlist, a.price_level_id, a.price_level_since FROM api_keys k JOIN accounts a ON a.id = k.account_id
  WHERE k.key_hash = $1 AND k.revoked_at IS NULL`

export async function findAccountByKeyHash(prepared: PreparedStatement, keyHash: string): Promise<AuthenticatedAccount | undefined> {
  const [account] = await prepared<AuthenticatedAccount>('authenticate', AUTHENTICATE, [keyHash])
  return account
}

const ACCOUNT_VIEW = ['id', 'name', 'email', 'status', 'balance', 'max_active_locks', 'ip_allowlist', 'created_at', 'updated_at'] as const

// The account's price level by code (docs/design.md §5d): what PATCH /resellers/{id} price_level takes.
const priceLevelCode = sql<string>`(SELECT code FROM price_levels WHERE id = accounts.price_level_id)`.as('price_level')

export async function findAccount(db: Database, id: number) {
  return db.selectFrom('accounts').select(ACCOUNT_VIEW).select(priceLevelCode).where('id', '=', id).executeTakeFirst()
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
      .select(ACCOUNT_VIEW)
      .select(priceLevelCode)
      .orderBy('id')
      .limit(q.perPage)
      .offset((q.page - 1) * q.perPage)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: count.n }
}

export function insertAccount(trx: Trx, values: { name: string; email: string | null }) {
  return trx.insertInto('accounts').values(values).returning('id').executeTakeFirstOrThrow()
}

/** The account's id and balance, its row locked (FOR NO KEY UPDATE) until the transaction ends. */
export function lockAccountRow(trx: Trx, accountId: number) {
  return trx.selectFrom('accounts').select(['id', 'balance']).where('id', '=', accountId).forNoKeyUpdate().executeTakeFirst()
}

export type AccountColumns = {
  status?: 'active' | 'suspended'
  max_active_locks?: number | null
  ip_allowlist?: string[]
  name?: string
  email?: string | null
}

/** Sets the given columns of the account; nothing when there is no such account. */
export function updateAccountColumns(trx: Trx, accountId: number, columns: AccountColumns) {
  const { name, email, status, max_active_locks, ip_allowlist } = columns
  return trx
    .updateTable('accounts')
    .set({ name, email, status, max_active_locks, ip_allowlist, updated_at: sql`now()` })
    .where('id', '=', accountId)
    .returning('id')
    .executeTakeFirst()
}

export async function insertApiKey(trx: Trx, accountId: number, keyHash: string, keyPrefix: string): Promise<void> {
  await trx.insertInto('api_keys').values({ account_id: accountId, key_hash: keyHash, key_prefix: keyPrefix }).execute()
}

export async function revokeApiKeysOf(trx: Trx, accountId: number): Promise<void> {
  await trx
    .updateTable('api_keys')
    .set({ revoked_at: sql`now()` })
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .execute()
}

/** The account's ledger entry made with this reference, if any. */
export function ledgerEntryByReference(trx: Trx, accountId: number, reference: string) {
  return trx
    .selectFrom('ledger_entries')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('reference', '=', reference)
    .executeTakeFirst()
}
