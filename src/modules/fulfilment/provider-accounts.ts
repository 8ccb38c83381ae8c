import type { Database } from '../../db/database.js'
import type { ProviderAccount } from '../../providers/upstream-http.js'
import type { Vault } from '../../vault.js'

/** A provider's address and credentials, the key decrypted; undefined when it has none to sign with. */
export async function loadProviderAccount(
  db: Database,
  vault: Vault,
  code: string,
): Promise<(ProviderAccount & { active: boolean }) | undefined> {
  const row = await db
    .selectFrom('providers')
    .select(['code', 'base_url', 'username', 'api_key_enc', 'active'])
    .where('code', '=', code)
    .executeTakeFirst()
  if (!row?.api_key_enc) return undefined
  return { code: row.code, baseUrl: row.base_url, username: row.username ?? '', apiKey: vault.decrypt(row.api_key_enc), active: row.active }
}

/** Runs `work` over `items`, at most `limit` at a time. */
export async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const lane = async () => {
    while (next < items.length) await work(items[next++])
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
}
