import { sql } from 'kysely'
import type { Database } from '../src/db/database.js'
import type { App } from '../src/http/server.js'
import { openComplaint } from '../src/modules/complaints/index.js'
import { newOperatorToken } from '../src/modules/team/index.js'
import { admin, type Reseller } from './factory.js'
import type { World } from './fuzz-world.js'

// The fuzz world's upkeep (test/fuzz-world.ts seeds it): what the seed and the runs between batches
// restock (complaints, bank transfers, the fuzz's own operator), `refresh` re-reading what requests
// changed and `heal` undoing what would starve the next batch.

// Port 9 refuses at once: every callback is a quick, recorded failure.
export const WEBHOOK = { callback_url: 'http://127.0.0.1:9/fuzz-hook', webhook_enabled: true }
export const FUNDS = 10_000_000_000

/** Open complaints on the fuzz accounts' newest lines that take one (each operator step closes or answers one). */
export async function restockComplaints(db: Database, world: World): Promise<void> {
  const { rows } = await sql<{ account_id: number; ref_id: string; line_id: number }>`
    SELECT o.account_id, o.ref_id, l.id AS line_id FROM order_lines l JOIN orders o ON o.id = l.order_id
     WHERE l.status IN ('pending', 'processing', 'delivered', 'sent') AND o.created_at > now() - interval '1 day'
       AND NOT EXISTS (SELECT 1 FROM complaints c WHERE c.order_line_id = l.id AND c.status <> 'closed')
       -- Lines of even id only: the odd ones stay free for the requests that open a complaint.
       AND l.id % 2 = 0
     ORDER BY l.order_process = 'h2h' DESC, l.status IN ('delivered', 'sent') DESC, l.id DESC LIMIT 12`.execute(db)
  for (const r of rows) {
    const body = { order_item_id: r.line_id, reason: 'not_received' as const, message: 'fuzz seed' }
    await openComplaint(db, { now: new Date(), days: 7 }, r.account_id, r.ref_id, body, { name: 'fuzz' }).catch(() => undefined)
  }
  world.complaints = []
}

// Far above any id the requests draw (a generated id is at most a few thousand, or 2^53 - 1): no request removes, demotes or
// revokes the fuzz's own operator and token by chance.
const ME_ID = 7_000_000_001

/** People for the team routes: invited ones, active ones with tokens, and the fuzz's own owner with spare tokens. */
export async function seedTeam(app: App, db: Database): Promise<World['me']> {
  const insertToken = async (operatorId: number, name: string, id?: number) => {
    const { token, hash, prefix } = newOperatorToken()
    await db
      .insertInto('operator_tokens')
      .values({ ...(id !== undefined && { id }), operator_id: operatorId, name, token_hash: hash, token_prefix: prefix })
      .execute()
    return token
  }
  const person = (id: number | undefined, email: string, role: 'owner' | 'admin' | 'support') =>
    db
      .insertInto('operators')
      .values({ ...(id !== undefined && { id }), email, name: email, role, status: 'active', updated_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow()
  const me = await person(ME_ID, 'me@fuzz.example', 'owner')
  const token = await insertToken(me.id, 'fuzz', ME_ID)
  for (const n of [1, 2, 3]) await insertToken(me.id, `spare ${n}`)
  for (const [email, role] of [
    ['ops-admin@fuzz.example', 'admin'],
    ['ops-support@fuzz.example', 'support'],
  ] as const) {
    const { id } = await person(undefined, email, role)
    for (const n of [1, 2]) await insertToken(id, `token ${n}`)
  }
  await inviteSpares(app, 3)
  return { id: me.id, tokenId: ME_ID, headers: { authorization: `Bearer ${token}` } }
}

let invited = 0
export const inviteSpares = async (app: App, n: number) => {
  for (let i = 0; i < n; i++)
    await admin(app, 'POST', '/operators', { email: `invited-${++invited}@fuzz.example`, name: `Invited ${invited}`, role: 'viewer' })
}

/** Re-reads the ids, refs and tokens the requests created or changed (the newest ones). */
export const FUZZ_BANK = { code: 'FZBANK', account_number: '5550001234' }

/** Transfer top-ups to match and credits to match or ignore, as many as a run uses up (an operator's match takes one of each). */
export async function restockBank(app: App, db: Database, accounts: Reseller[]): Promise<number> {
  let requests = 0
  const pending = await sql<{
    n: number
  }>`SELECT count(*)::int AS n FROM topups WHERE channel = ${FUZZ_BANK.code} AND status = 'pending'`.execute(db)
  for (let i = pending.rows[0]!.n; i < 6; i++) {
    requests++
    await app.inject({
      method: 'POST',
      url: '/api/v1/balance',
      headers: accounts[i % accounts.length]!.headers,
      payload: { amount: 20_000, channel: FUZZ_BANK.code },
    })
  }
  // As Moota would push them: credits without a code, which only an operator can place.
  await sql`INSERT INTO bank_mutations (mutation_id, source, account_number, amount, type, description)
    SELECT 'fz-' || gen_random_uuid(), 'moota', ${FUZZ_BANK.account_number}, 20000 + g, 'CR', 'fuzz seed' FROM generate_series(1, 8) g
    WHERE (SELECT count(*) FROM bank_mutations WHERE status = 'unmatched') < 8`.execute(db)
  return requests
}

export async function refresh(world: World, db: Database): Promise<void> {
  world.bank.transfers = (
    await sql<World['bank']['transfers'][number]>`SELECT reference, status FROM topups WHERE gateway = 'bank_transfer'
      ORDER BY status = 'pending' DESC, id DESC LIMIT 100`.execute(db)
  ).rows
  world.bank.mutations = (
    await sql<
      World['bank']['mutations'][number]
    >`SELECT id, status FROM bank_mutations ORDER BY status = 'unmatched' DESC, id DESC LIMIT 100`.execute(db)
  ).rows
  world.orders = (
    await sql<World['orders'][number]>`SELECT id, account_id, ref_id, invoice, status FROM orders ORDER BY id DESC LIMIT 300`.execute(db)
  ).rows
  world.lines = (
    await sql<World['lines'][number]>`SELECT id, order_id, order_process, status FROM order_lines ORDER BY id DESC LIMIT 600`.execute(db)
  ).rows
  world.locks = (
    await sql<
      World['locks'][number]
    >`SELECT token, account_id, item_id, quantity, status FROM stock_locks ORDER BY id DESC LIMIT 300`.execute(db)
  ).rows
  world.sandboxes = (
    await sql<World['sandboxes'][number]>`SELECT account_id, ref_id, invoice FROM sandbox_orders ORDER BY id DESC LIMIT 200`.execute(db)
  ).rows
  world.topups = (
    await sql<
      World['topups'][number]
    >`SELECT account_id, reference, ref_id, invoice, status FROM topups ORDER BY status = 'review' DESC, id DESC LIMIT 200`.execute(db)
  ).rows
  world.complaints = (
    await sql<World['complaints'][number]>`SELECT c.id, c.account_id, c.order_line_id, c.status, l.order_process, l.status AS line_status
      FROM complaints c JOIN order_lines l ON l.id = c.order_line_id ORDER BY c.status <> 'closed' DESC, c.id DESC LIMIT 200`.execute(db)
  ).rows
  world.dispatches = (
    await sql<World['dispatches'][number]>`SELECT id, status FROM dispatches ORDER BY status = 'review' DESC, id DESC LIMIT 100`.execute(db)
  ).rows
  world.deliveries = (
    await sql<World['deliveries'][number]>`SELECT id, account_id FROM webhook_deliveries ORDER BY id DESC LIMIT 200`.execute(db)
  ).rows
  world.users = (await sql<World['users'][number]>`SELECT id, account_id FROM reseller_users ORDER BY id DESC LIMIT 200`.execute(db)).rows
  world.held = (
    await sql<World['held'][number]>`SELECT id, provider, hold_open AS open FROM supplier_changes WHERE kind = 'held'
      ORDER BY hold_open DESC, id DESC LIMIT 100`.execute(db)
  ).rows
  type Row = { id: number; empty: boolean }
  const emptyIf = (table: string, child: string, key: string) =>
    sql<Row>`SELECT id, NOT EXISTS (SELECT 1 FROM ${sql.table(child)} c WHERE c.${sql.ref(key)} = t.id) AS empty
      FROM ${sql.table(table)} t ORDER BY id DESC LIMIT 100`.execute(db)
  world.categories = (await emptyIf('categories', 'products', 'category_id')).rows
  world.products = (await emptyIf('products', 'items', 'product_id')).rows
  world.pricingRules = (await sql<{ id: number }>`SELECT id FROM pricing_rules ORDER BY id DESC LIMIT 50`.execute(db)).rows.map((r) => r.id)
  world.levels = (await sql<{ code: string }>`SELECT code FROM price_levels ORDER BY id LIMIT 50`.execute(db)).rows.map((r) => r.code)
  world.accountIds = (await sql<{ id: number }>`SELECT id FROM accounts ORDER BY id`.execute(db)).rows.map((r) => r.id)
  world.operators = (
    await sql<World['operators'][number]>`SELECT id, status FROM operators WHERE id <> ${world.me.id}
      ORDER BY status = 'removed', id DESC LIMIT 100`.execute(db)
  ).rows
  world.tokens = (
    await sql<World['tokens'][number]>`SELECT id, operator_id, revoked_at IS NULL AS live FROM operator_tokens
      WHERE id <> ${world.me.tokenId} ORDER BY revoked_at IS NULL DESC, id DESC LIMIT 200`.execute(db)
  ).rows
}

/**
 * Undoes what operator requests did to the fuzz accounts and items (suspended, walled off by an
 * allow-list, lock cap 0, drained, items off, providers switched), so reseller requests keep
 * reaching the deep paths. Only through the operator API, with valid bodies.
 */
export async function heal(app: App, db: Database, world: World): Promise<number> {
  let requests = 0
  const op = async (method: 'POST' | 'PATCH', url: string, payload: object) => {
    requests++
    return admin(app, method, url, payload).catch(() => undefined)
  }
  const balances = new Map(
    (await sql<{ id: number; balance: number }>`SELECT id, balance FROM accounts`.execute(db)).rows.map((r) => [r.id, r.balance]),
  )
  for (const a of world.accounts) {
    await op('PATCH', `/resellers/${a.id}`, { status: 'active', ip_allowlist: [], max_active_locks: 1000 })
    if ((balances.get(a.id) ?? 0) < FUNDS / 10) await op('POST', `/resellers/${a.id}/balance`, { amount: FUNDS, reason: 'fuzz refill' })
  }
  for (const p of world.providers)
    await op('PATCH', `/providers/${p.code}`, {
      active: p.active,
      ...(p.base_url && { base_url: p.base_url, username: 'demo', api_key: 'demo-key' }),
    })
  for (const a of world.accounts) {
    requests += 2
    await app.inject({ method: 'POST', url: '/api/v1/webhook/secret', headers: a.headers })
    await app.inject({ method: 'PUT', url: '/api/v1/webhook', headers: a.headers, payload: WEBHOOK })
  }
  for (const code of [...world.channels, world.bank.channel])
    await op('PATCH', `/channels/${code}`, { active: true, min_amount: 10_000, max_amount: 10_000_000 })
  await op('PATCH', `/channels/${world.bank.channel}`, {
    type: 'bank_transfer',
    fee_flat: 0,
    fee_percent: 0,
    account_number: FUZZ_BANK.account_number,
  })
  requests += await restockBank(app, db, world.accounts)
  await restockComplaints(db, world)
  const stock = new Map(
    (
      await sql<{
        id: number
        stock: number
        available: number
      }>`SELECT id, stock, (SELECT count(*) FROM licenses l WHERE l.item_id = i.id AND l.status = 'available') AS available FROM items i`.execute(
        db,
      )
    ).rows.map((r) => [r.id, r]),
  )
  for (const item of world.items) {
    const change: Record<string, unknown> = { ...item.restore }
    if (!item.unlimited && item.order_process !== 'auto' && (stock.get(item.id)?.stock ?? 0) < 1000) change.stock = 100_000
    await op('PATCH', `/items/${item.id}`, change)
    if (item.order_process === 'auto' && Number(stock.get(item.id)?.available ?? 0) < 100) {
      await op('POST', `/items/${item.id}/licenses`, {
        licenses: Array.from({ length: 300 }, (_, i) => `FZ-${item.id}-${Date.now()}-${i}`),
      })
    }
  }
  // Removals use up the people: a few more to invite, change and remove.
  if (world.operators.filter((o) => o.status !== 'removed').length < 4) {
    requests += 3
    await inviteSpares(app, 3)
  }
  await refresh(world, db)
  return requests
}
