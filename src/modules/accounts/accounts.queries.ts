import type { Database } from '../../db/database.js'

export type AuthenticatedAccount = {
  id: number
  status: 'active' | 'suspended'
  ip_allowlist: string[]
  key_id: number
}

export async function findAccountByKeyHash(db: Database, keyHash: string): Promise<AuthenticatedAccount | undefined> {
  return db
    .selectFrom('api_keys as k')
    .innerJoin('accounts as a', 'a.id', 'k.account_id')
    .select(['a.id', 'a.status', 'a.ip_allowlist', 'k.id as key_id'])
    .where('k.key_hash', '=', keyHash)
    .where('k.revoked_at', 'is', null)
    .executeTakeFirst()
}

export async function findAccount(db: Database, id: number) {
  return db
    .selectFrom('accounts')
    .select(['id', 'name', 'email', 'status', 'balance', 'max_active_locks', 'ip_allowlist', 'created_at', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirst()
}
