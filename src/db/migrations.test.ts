import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { APP_KEY } from '../../test/app.js'
import { emptyDatabase, migrateTo } from '../../test/migration-steps.js'
import { addLicenses } from '../modules/catalog/index.js'
import { createVault, sha256Hex } from '../vault.js'
import type { DatabaseHandle } from './database.js'
import { migrateToLatest } from './migrate.js'

const vault = createVault(APP_KEY)

/** An auto item of its own, inserted as an older version of the service would have. */
async function legacyItem(handle: DatabaseHandle, sku: string): Promise<number> {
  const { rows } = await sql<{ id: number }>`
    WITH c AS (INSERT INTO categories (name) VALUES (${sku}) RETURNING id),
         p AS (INSERT INTO products (category_id, name) SELECT id, ${sku} FROM c RETURNING id)
    INSERT INTO items (product_id, sku, name, price, order_process) SELECT id, ${sku}, ${sku}, 1000, 'auto' FROM p RETURNING id`.execute(
    handle.db,
  )
  return rows[0].id
}
const legacyLicense = (handle: DatabaseHandle, itemId: number, code: string) =>
  sql`INSERT INTO licenses (item_id, content_enc, fingerprint) VALUES (${itemId}, ${vault.encrypt(code)}, ${vault.fingerprint(code)})`.execute(
    handle.db,
  )

describe('migration 0004: a voucher is unique in the whole store', () => {
  it('reports vouchers already stocked in several items without deleting any, and still refuses new copies', async () => {
    const handle = await emptyDatabase()
    await migrateTo(handle, '20261122_0003_money-bounds')
    const a = await legacyItem(handle, 'OLD-A')
    const b = await legacyItem(handle, 'OLD-B')
    for (const [item, code] of [
      [a, 'TWICE'],
      [b, 'TWICE'],
      [a, 'ONLY-A'],
      [b, 'ONLY-B'],
    ] as const)
      await legacyLicense(handle, item, code)

    await migrateToLatest(handle.db)
    const reported = await sql<{
      item_id: number
      fingerprint: string
      status: string
    }>`SELECT item_id, fingerprint, status FROM license_duplicates ORDER BY item_id`.execute(handle.db)
    expect(reported.rows).toEqual([a, b].map((item_id) => ({ item_id, fingerprint: vault.fingerprint('TWICE'), status: 'available' })))
    expect((await sql<{ n: number }>`SELECT count(*) AS n FROM licenses`.execute(handle.db)).rows[0].n).toBe(4)
    // Migration 0180 registers the duplicated voucher once: no copy of it can be stocked again.
    expect((await sql<{ n: number }>`SELECT count(*) AS n FROM license_fingerprints`.execute(handle.db)).rows[0].n).toBe(3)

    // Racing operators stock each voucher once.
    const c = await legacyItem(handle, 'NEW-C')
    const d = await legacyItem(handle, 'NEW-D')
    const results = await Promise.all(
      [c, d, c, d].map((item) => addLicenses(handle.db, vault, item, ['TWICE', 'ONLY-A', 'FRESH-1', 'FRESH-2'])),
    )
    expect(results.reduce((sum, r) => sum + r.added, 0)).toBe(2)
    const fresh = await sql<{
      n: number
    }>`SELECT count(*) AS n FROM licenses WHERE fingerprint IN (${vault.fingerprint('FRESH-1')}, ${vault.fingerprint('FRESH-2')})`.execute(
      handle.db,
    )
    expect(fresh.rows[0].n).toBe(2)
  })

  it('makes the fingerprint unique store-wide when there is nothing to report', async () => {
    const handle = await emptyDatabase()
    await migrateTo(handle, '20261122_0003_money-bounds')
    await legacyLicense(handle, await legacyItem(handle, 'CLEAN-A'), 'ONE')
    await legacyLicense(handle, await legacyItem(handle, 'CLEAN-B'), 'TWO')
    await migrateTo(handle, '20261126_0170_webhook-id-salt')
    expect((await sql<{ n: number }>`SELECT count(*) AS n FROM license_duplicates`.execute(handle.db)).rows[0].n).toBe(0)
    // The unique index of migration 0004 until 0180 moved uniqueness to the registry.
    const indexes = await sql<{
      indexname: string
      indexdef: string
    }>`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'licenses' AND indexdef LIKE '%(fingerprint)'`.execute(handle.db)
    expect(indexes.rows).toEqual([{ indexname: 'licenses_fingerprint_uq', indexdef: expect.stringContaining('UNIQUE') }])
    await migrateToLatest(handle.db)
    expect((await sql<{ n: number }>`SELECT count(*) AS n FROM license_fingerprints`.execute(handle.db)).rows[0].n).toBe(2)
  })
})

describe('migration 0003: money within 10^15', () => {
  it('starts on a database that already holds more, names it, and bounds every write from then on', async () => {
    const handle = await emptyDatabase()
    await migrateTo(handle, '20261122_0002_orders')
    await sql`INSERT INTO accounts (name, balance) VALUES ('rich', 2000000000000000), ('plain', 5)`.execute(handle.db)
    await migrateToLatest(handle.db)
    // Migration 0160 moved the bound of the tables a purchase writes into the money_amount domain.
    const constraints = await sql<{ conname: string; convalidated: boolean }>`
      SELECT conname, convalidated FROM pg_constraint WHERE conname LIKE '%_money_max' ORDER BY conname`.execute(handle.db)
    expect(constraints.rows).toEqual(['items', 'sandbox_orders'].map((t) => ({ conname: `${t}_money_max`, convalidated: true })))
    const domain = await sql<{ convalidated: boolean }>`
      SELECT convalidated FROM pg_constraint WHERE conname = 'money_amount_max'`.execute(handle.db)
    expect(domain.rows).toEqual([{ convalidated: false }])
    await expect(sql`UPDATE accounts SET balance = 1000000000000001 WHERE name = 'plain'`.execute(handle.db)).rejects.toThrow(
      /money_amount_max/,
    )
    await expect(sql`INSERT INTO accounts (name, balance) VALUES ('new', 1000000000000001)`.execute(handle.db)).rejects.toThrow(
      /money_amount_max/,
    )
  })
})

describe('migration 0050: each delivery carries its attempt log', () => {
  it('moves every recorded attempt into its delivery, oldest first, as the delivery log lists them', async () => {
    const handle = await emptyDatabase()
    await migrateTo(handle, '20261122_0030_webhooks')
    await sql`INSERT INTO accounts (name) VALUES ('shop')`.execute(handle.db)
    const { rows } = await sql<{ id: number }>`
      INSERT INTO webhook_deliveries (account_id, event, webhook_id, status, failures)
      VALUES (1, 'order.paid', 'evt_a', 'delivered', 1), (1, 'order.paid', 'evt_b', 'pending', 0) RETURNING id`.execute(handle.db)
    await sql`INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, duration_ms, error) VALUES
      (${rows[0].id}, '2026-11-22T10:00:01.250Z', 503, 12, 'HTTP 503'),
      (${rows[0].id}, '2026-11-22T10:00:02.500Z', 200, 7, NULL)`.execute(handle.db)

    await migrateToLatest(handle.db)
    const migrated = await sql<{ webhook_id: string; attempts: unknown }>`
      SELECT webhook_id, attempts FROM webhook_deliveries ORDER BY id`.execute(handle.db)
    expect(migrated.rows).toEqual([
      {
        webhook_id: 'evt_a',
        attempts: [
          { attempted_at: '2026-11-22T10:00:01.250Z', status_code: 503, duration_ms: 12, error: 'HTTP 503' },
          { attempted_at: '2026-11-22T10:00:02.500Z', status_code: 200, duration_ms: 7, error: null },
        ],
      },
      { webhook_id: 'evt_b', attempts: [] },
    ])
    const left = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'webhook_attempts'`.execute(handle.db)
    expect(left.rows[0].n).toBe(0)
  })
})

describe('migration 0120: accounts keep their lists’ totals', () => {
  it('counts the orders and ledger entries already stored', async () => {
    const handle = await emptyDatabase()
    await migrateTo(handle, '20261124_0110_licenses-one-unique')
    const { rows } = await sql<{ id: number }>`INSERT INTO accounts (name) VALUES ('busy'), ('idle') RETURNING id`.execute(handle.db)
    const [busy, idle] = rows.map((r) => r.id)
    await sql`INSERT INTO orders (account_id, ref_id, invoice, status, price, fees, amount)
              SELECT ${busy}, 'r' || g, 'INV' || g, 'completed', 0, 0, 0 FROM generate_series(1, 3) g`.execute(handle.db)
    await sql`INSERT INTO ledger_entries (account_id, direction, type, amount, balance_before, balance_after, description)
              SELECT ${busy}, 'credit', 'adjustment', 1, g - 1, g, '' FROM generate_series(1, 5) g`.execute(handle.db)
    await migrateToLatest(handle.db)
    const counted = await sql<{ id: number; orders_count: number; ledger_count: number }>`
      SELECT id, orders_count, ledger_count FROM accounts ORDER BY id`.execute(handle.db)
    expect(counted.rows).toEqual([
      { id: busy, orders_count: 3, ledger_count: 5 },
      { id: idle, orders_count: 0, ledger_count: 0 },
    ])
  })
})

describe('migration 0150: licenses are vacuumed at 1 % of dead rows', () => {
  it('sets the table’s own autovacuum thresholds', async () => {
    const handle = await emptyDatabase()
    await migrateToLatest(handle.db)
    const { rows } = await sql<{ reloptions: string[] }>`SELECT reloptions FROM pg_class WHERE oid = 'licenses'::regclass`.execute(
      handle.db,
    )
    expect(rows[0].reloptions).toEqual(
      expect.arrayContaining([
        'autovacuum_vacuum_scale_factor=0.01',
        'autovacuum_vacuum_threshold=1000',
        'autovacuum_analyze_scale_factor=0.02',
      ]),
    )
  })
})

describe('migration 0160: one-column rules become domains', () => {
  it('keeps the rows and refuses every write the table checks refused', async () => {
    const handle = await emptyDatabase()
    await migrateTo(handle, '20261125_0150_licenses-autovacuum')
    const item = await legacyItem(handle, 'DOM-A')
    await sql`INSERT INTO accounts (name, balance) VALUES ('shop', 500)`.execute(handle.db)
    await sql`INSERT INTO orders (account_id, ref_id, invoice, status, price, fees, amount) VALUES (1, 'r1', 'INV1', 'paid', 100, 0, 100)`.execute(
      handle.db,
    )
    await sql`INSERT INTO order_lines (order_id, position, item_id, order_process, product_name, variant_name, quantity, unit_price, subtotal, status)
              VALUES (1, 0, ${item}, 'auto', 'P', 'V', 2, 50, 100, 'pending')`.execute(handle.db)
    await migrateToLatest(handle.db)

    const kept = await sql<{ balance: string; status: string; quantity: number }>`
      SELECT a.balance::text AS balance, o.status, l.quantity FROM accounts a, orders o, order_lines l`.execute(handle.db)
    expect(kept.rows).toEqual([{ balance: '500', status: 'paid', quantity: 2 }])
    const refused: [string, string][] = [
      [`UPDATE accounts SET balance = -1`, 'money_amount_non_negative'],
      [`UPDATE accounts SET status = 'gone'`, 'account_status_known'],
      [`UPDATE accounts SET max_active_locks = -1`, 'whole_count_non_negative'],
      [`UPDATE orders SET status = 'lost'`, 'order_status_known'],
      [`UPDATE orders SET fees = -1, amount = 99`, 'money_amount_non_negative'],
      [`UPDATE orders SET amount = 101`, 'orders_check'],
      [`UPDATE order_lines SET quantity = 0, subtotal = 0`, 'positive_quantity_positive'],
      [`UPDATE order_lines SET status = 'lost'`, 'order_line_status_known'],
      [`UPDATE order_lines SET subtotal = 99`, 'order_lines_check'],
      [`UPDATE order_lines SET refunded_amount = 101`, 'order_lines_check1'],
      [
        `INSERT INTO ledger_entries (account_id, direction, type, amount, balance_before, balance_after) VALUES (1, 'credit', 'topup', 0, 500, 500)`,
        'positive_money_positive',
      ],
      [
        `INSERT INTO ledger_entries (account_id, direction, type, amount, balance_before, balance_after) VALUES (1, 'up', 'topup', 1, 500, 501)`,
        'ledger_direction_known',
      ],
      [
        `INSERT INTO ledger_entries (account_id, direction, type, amount, balance_before, balance_after) VALUES (1, 'credit', 'gift', 1, 500, 501)`,
        'ledger_type_known',
      ],
      [
        `INSERT INTO ledger_entries (account_id, direction, type, amount, balance_before, balance_after) VALUES (1, 'credit', 'topup', 1, 500, 502)`,
        'ledger_entries_check',
      ],
      [`UPDATE licenses SET status = 'lost'`, 'license_status_known'],
      [`INSERT INTO leaderboard_months (account_id, month) VALUES (1, '2026-11-02')`, 'month_start_first_day'],
      [`INSERT INTO leaderboard_months (account_id, month, transactions) VALUES (1, '2026-11-01', -1)`, 'whole_count_non_negative'],
    ]
    await legacyLicense(handle, item, 'DOM-CODE')
    for (const [statement, constraint] of refused) {
      await expect(sql.raw(statement).execute(handle.db), statement).rejects.toMatchObject({ code: '23514', constraint })
    }
    const left = await sql<{ conname: string }>`
      SELECT conname FROM pg_constraint WHERE contype = 'c' AND conrelid::regclass::text IN
        ('accounts', 'ledger_entries', 'orders', 'order_lines', 'licenses', 'leaderboard_months') ORDER BY conname`.execute(handle.db)
    expect(left.rows.map((r) => r.conname)).toEqual([
      'leaderboard_months_amount_check',
      'ledger_entries_check',
      'order_lines_check',
      'order_lines_check1',
      'orders_check',
    ])
  })
})

describe('migration 0230: categories get slugs', () => {
  it('fills existing categories from their names, a clash numbered in id order, and keeps them unique', async () => {
    const handle = await emptyDatabase()
    await migrateTo(handle, '20261127_0220_webhook-payload-once')
    for (const name of ['Top Up & Café', 'top-up cafe', '***', 'Games'])
      await sql`INSERT INTO categories (name) VALUES (${name})`.execute(handle.db)
    await migrateToLatest(handle.db)
    const { rows } = await sql<{ name: string; slug: string }>`SELECT name, slug FROM categories ORDER BY id`.execute(handle.db)
    expect(rows).toEqual([
      { name: 'Top Up & Café', slug: 'top-up-cafe' },
      { name: 'top-up cafe', slug: 'top-up-cafe-2' },
      { name: '***', slug: 'category' },
      { name: 'Games', slug: 'games' },
    ])
    await expect(sql`UPDATE categories SET slug = 'games' WHERE name = '***'`.execute(handle.db)).rejects.toMatchObject({
      code: '23505',
      constraint: 'categories_slug_key',
    })
  })
})

describe('migration 0330: dashboard users per account, sign-in failures per email', () => {
  it('keeps each email’s failure count and lock, and lets an email be a user of several accounts but once in each', async () => {
    const handle = await emptyDatabase()
    await migrateTo(handle, '20261206_0300_margin-floor')
    await sql`INSERT INTO accounts (name) VALUES ('one'), ('two')`.execute(handle.db)
    await sql`INSERT INTO reseller_users (account_id, email, role, failed_sign_ins, locked_until) VALUES
      (1, 'locked@x.example', 'owner', 0, now() + interval '10 minutes'),
      (1, 'tried@x.example', 'owner', 4, NULL),
      (1, 'calm@x.example', 'owner', 0, NULL)`.execute(handle.db)
    await migrateToLatest(handle.db)
    const { rows } = await sql<{ email_hash: string; failures: number; locked: boolean }>`
      SELECT email_hash, failures, locked_until > now() AS locked FROM reseller_sign_in_failures ORDER BY failures`.execute(handle.db)
    expect(rows).toEqual([
      { email_hash: sha256Hex('locked@x.example'), failures: 0, locked: true },
      { email_hash: sha256Hex('tried@x.example'), failures: 4, locked: null },
    ])
    await sql`INSERT INTO reseller_users (account_id, email, role) VALUES (2, 'locked@x.example', 'staff')`.execute(handle.db)
    await expect(
      sql`INSERT INTO reseller_users (account_id, email, role) VALUES (2, 'locked@x.example', 'owner')`.execute(handle.db),
    ).rejects.toMatchObject({
      code: '23505',
      constraint: 'reseller_users_account_email_key',
    })
  })
})
