import { sql } from 'kysely'
import type { Database } from '../../db/database.js'

/** A provider's last balance read, with its completed requests' cost over the last 24 hours. */
export type BalanceRow = {
  code: string
  kind: string
  active: boolean
  balance: string | null
  currency: string | null
  read_at: Date | null
  tried_at: Date | null
  error: string | null
  spent_24h: string
}

/** The provider, its last balance read (none yet: nulls) and what its completed requests cost in 24 hours. */
export async function balanceRowOf(db: Database, code: string): Promise<BalanceRow | undefined> {
  const { rows } = await sql<BalanceRow>`
    SELECT p.code, p.kind, p.active, b.balance, b.currency, b.read_at, b.tried_at, b.error,
           provider_spent_24h(p.code)::text AS spent_24h
      FROM providers p LEFT JOIN provider_balances b ON b.provider = p.code
     WHERE p.code = ${code}`.execute(db)
  return rows[0]
}

/** Switched-on providers of the kinds that report a balance whose last attempt is older than `everyMs` (or none). */
export async function providersDueForBalance(db: Database, kinds: readonly string[], everyMs: number): Promise<string[]> {
  const { rows } = await sql<{ code: string }>`
    SELECT p.code FROM providers p LEFT JOIN provider_balances b ON b.provider = p.code
     WHERE p.active AND p.api_key_enc IS NOT NULL AND p.kind = ANY (${kinds as string[]}::text[])
       AND (b.tried_at IS NULL OR b.tried_at <= now() - make_interval(secs => ${everyMs / 1000}::float8))
     ORDER BY p.code`.execute(db)
  return rows.map((r) => r.code)
}

/** Records one read: the balance, or why there is none this time (the last good read stays). */
export async function recordBalanceRead(
  db: Database,
  provider: string,
  read: { balance: string; currency: string } | { error: string },
): Promise<void> {
  if ('error' in read) {
    await sql`INSERT INTO provider_balances (provider, tried_at, error) VALUES (${provider}, now(), ${read.error})
              ON CONFLICT (provider) DO UPDATE SET tried_at = now(), error = EXCLUDED.error`.execute(db)
    return
  }
  await sql`INSERT INTO provider_balances (provider, balance, currency, read_at, tried_at, error)
            VALUES (${provider}, ${read.balance}::numeric, ${read.currency}, now(), now(), NULL)
            ON CONFLICT (provider) DO UPDATE
              SET balance = EXCLUDED.balance, currency = EXCLUDED.currency, read_at = now(), tried_at = now(), error = NULL`.execute(db)
}
