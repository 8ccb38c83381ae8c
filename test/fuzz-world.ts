import { sql } from 'kysely'
import type { Database } from '../src/db/database.js'
import type { App } from '../src/http/server.js'
import { openComplaint } from '../src/modules/complaints/index.js'
import { newOperatorToken } from '../src/modules/team/index.js'
import { admin, createAutoItem, createItem, createReseller, get, type Reseller } from './factory.js'
import { buy } from './factory-orders.js'

/**
 * The data a fuzz run aims at: funded accounts with orders (paid manual lines, completed auto lines,
 * sandbox orders) and locks, items of every kind, providers on and off. Requests pick ids, refs and
 * tokens from here so they reach the deep paths; `refresh` re-reads what the requests changed.
 */
export type SeedItem = {
  id: number
  order_process: string
  unlimited: boolean
  min: number
  max: number | null
  price: number
  restore: Record<string, unknown>
  note?: string
}
// Port 9 refuses at once: every callback is a quick, recorded failure.
const WEBHOOK = { callback_url: 'http://127.0.0.1:9/fuzz-hook', webhook_enabled: true }

export type World = {
  accounts: (Reseller & { balance: number })[]
  items: SeedItem[]
  /** Limited stock no operator request may touch: its stock must add up exactly afterwards. */
  ledgerItem: SeedItem
  ledgerStock: number
  providers: { code: string; active: boolean; base_url?: string }[]
  orders: { id: number; account_id: number; ref_id: string; invoice: string; status: string }[]
  lines: { id: number; order_id: number; order_process: string; status: string }[]
  /** Complaints (docs/design.md §14), those not closed first, with their line's process and state. */
  complaints: { id: number; account_id: number; order_line_id: number; status: string; order_process: string; line_status: string }[]
  locks: { token: string; account_id: number; item_id: number; quantity: number; status: string }[]
  sandboxes: { account_id: number; ref_id: string; invoice: string }[]
  /** Top-up channel codes, and the newest top-ups (their gateway references), those in review first. */
  channels: string[]
  topups: { account_id: number; reference: string; ref_id: string; invoice: string; status: string }[]
  /** A bank_transfer channel, its transfer top-ups (pending first) and its mutations (unmatched first) (docs/design.md §7b). */
  bank: { channel: string; transfers: { reference: string; status: string }[]; mutations: { id: number; status: string }[] }
  /** Upstream requests, those waiting for the operator's review first. */
  dispatches: { id: number; status: string }[]
  /** Webhook deliveries (each account's test callbacks to a port that refuses). */
  deliveries: { id: number; account_id: number }[]
  /** Dashboard users (each account's invited owner and staff), for the operator's removals to reach. */
  users: { id: number; account_id: number }[]
  /** Prices a sync held (docs/design.md §11c), those still undecided first, for approve and reject to reach. */
  held: { id: number; provider: string; open: boolean }[]
  /** Categories and products, the newest first; empty ones can be deleted. */
  categories: { id: number; empty: boolean }[]
  products: { id: number; empty: boolean }[]
  /** Supplier pricing rules' ids (the newest), for their delete to reach one that exists. */
  pricingRules: number[]
  /** Price level codes (docs/design.md §5d), the default `reseller` among them. */
  levels: string[]
  /** The fuzz's own operator, an owner, whose op_ token sends the /me requests (ADMIN_TOKEN has no tokens of its own). */
  me: { id: number; tokenId: number; headers: Record<string, string> }
  /** The other operators, live ones first, and their tokens (and the spare ones of `me`), for the team routes to reach. */
  operators: { id: number; status: string }[]
  tokens: { id: number; operator_id: number; live: boolean }[]
  accountIds: number[]
  columns: string[]
}

const FUNDS = 10_000_000_000

/** `upstreams`: where the simulators listen (test/upstreams.ts); providers and validation point there. */
export async function seedWorld(app: App, db: Database, upstreams = 'http://127.0.0.1:9'): Promise<World> {
  const accounts = []
  for (const name of ['Fuzz A', 'Fuzz B', 'Fuzz C'])
    accounts.push({ ...(await createReseller(app, { name, balance: FUNDS })), balance: FUNDS })
  const providers = [
    { code: 'fz-h2h', active: true, base_url: `${upstreams}/digiflazz/v1` },
    { code: 'fz-smm', active: true, base_url: `${upstreams}/smm/api/v2` },
    { code: 'fz-off', active: false },
  ]
  await admin(app, 'POST', '/providers', {
    code: 'fz-h2h',
    kind: 'digiflazz',
    base_url: `${upstreams}/digiflazz/v1`,
    username: 'demo',
    api_key: 'demo-key',
  })
  await admin(app, 'POST', '/providers', { code: 'fz-smm', kind: 'smm_panel', base_url: `${upstreams}/smm/api/v2`, api_key: 'demo-key' })
  await admin(app, 'POST', '/providers', { code: 'fz-off', kind: 'digiflazz', base_url: 'http://127.0.0.1:9/v1', active: false })

  const specs: [Record<string, unknown>, number, string?][] = [
    [{ order_process: 'auto', price: 1_000 }, 400],
    [{ order_process: 'manual', price: 500, stock: 1_000_000 }, 0],
    [{ order_process: 'manual', price: 2_000, unlimited_stock: true }, 0],
    [{ order_process: 'manual', price: 300, stock: 100_000, min_order: 5, max_order: 10 }, 0],
    [{ order_process: 'manual', price: 1e12, unlimited_stock: true }, 0],
    [{ order_process: 'h2h', price: 1_500, unlimited_stock: true, provider: 'fz-h2h', provider_code: 'ML5' }, 0, '0812345678'],
    [
      { order_process: 'smm', price: 10, unlimited_stock: true, provider: 'fz-smm', provider_code: '1' },
      0,
      '{"target":"https://example.com/p","opt_smm":"x"}',
    ],
    [{ order_process: 'h2h', price: 1_500, unlimited_stock: true, provider: 'fz-off', provider_code: 'X' }, 0, '0812'],
    [
      {
        order_process: 'h2h',
        price: 2_000,
        unlimited_stock: true,
        provider: 'fz-h2h',
        provider_code: 'ML86',
        provider_meta: { validation: true },
      },
      0,
      '123456781',
    ],
    [{ order_process: 'manual', price: 100, stock: 50, active: false }, 0],
    // A postpaid bill (paid through /trx/tagihan); the simulator has a bill for this customer.
    [
      {
        order_process: 'h2h',
        price: 2_500,
        unlimited_stock: true,
        provider: 'fz-h2h',
        provider_code: 'pln',
        provider_meta: { postpaid: true },
      },
      0,
      '530000000001',
    ],
  ]
  const items: SeedItem[] = []
  for (const [body, licenses, note] of specs) {
    const item = body.order_process === 'auto' ? await createAutoItem(app, licenses, body) : await createItem(app, body)
    const restore = {
      price: body.price,
      active: body.active ?? true,
      min_order: body.min_order ?? 1,
      max_order: body.max_order ?? null,
      provider: body.provider ?? null,
      provider_code: body.provider_code ?? null,
      ...(body.provider_meta !== undefined && { provider_meta: body.provider_meta }),
      ...(body.order_process !== 'auto' && { unlimited_stock: body.unlimited_stock ?? false }),
    }
    items.push({
      id: item.id,
      order_process: item.order_process,
      unlimited: item.unlimited_stock,
      min: item.min_order,
      max: item.max_order,
      price: item.price,
      restore,
      note,
    })
  }
  const ledgerStock = 100_000
  const led = await createItem(app, { order_process: 'manual', price: 700, stock: ledgerStock })
  const ledgerItem: SeedItem = { id: led.id, order_process: 'manual', unlimited: false, min: 1, max: null, price: 700, restore: {} }

  const [auto, limited, unlimited] = items
  for (const [i, a] of accounts.entries()) {
    for (const [n, item] of [auto, limited, unlimited, ledgerItem, limited].entries()) {
      const res = await buy(app, a, `seed-${i}-${n}`, [{ item_id: item.id, quantity: item.min }])
      if (res.statusCode !== 200) throw new Error(`seed purchase: ${res.body}`)
    }
    for (const item of [limited, ledgerItem, limited]) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/item/lock',
        headers: a.headers,
        payload: { item_id: item.id, quantity: 1 },
      })
      if (res.statusCode !== 201) throw new Error(`seed lock: ${res.body}`)
    }
    const sbx = await app.inject({
      method: 'POST',
      url: '/api/v1/order/sandbox',
      headers: a.headers,
      payload: { ref_id: `seed-sbx-${i}`, item_id: auto.id, quantity: 1 },
    })
    if (sbx.statusCode !== 200) throw new Error(`seed sandbox: ${sbx.body}`)
    // A complaint on the pending manual line of seed-<i>-1, for the complaint routes' ids to reach.
    const line = (await get(app, `/trx/seed-${i}-1`, a)).json().data.items[0].order_item_id
    const complaint = await app.inject({
      method: 'POST',
      url: `/api/v1/trx/seed-${i}-1/complaints`,
      headers: a.headers,
      payload: { order_item_id: line, reason: 'not_received', message: 'fuzz seed' },
    })
    if (complaint.statusCode !== 201) throw new Error(`seed complaint: ${complaint.body}`)
    const smm = items.find((it) => it.order_process === 'smm')!
    for (const n of [0, 1]) {
      const res = await buy(app, a, `seed-smm-${i}-${n}`, [{ item_id: smm.id, quantity: smm.min, note: smm.note }])
      if (res.statusCode !== 200) throw new Error(`seed smm purchase: ${res.body}`)
    }
  }
  const channels = ['FZQRIS', 'FZVA']
  for (const code of channels) await admin(app, 'POST', '/channels', { code, name: code, type: 'qris', fee_flat: 500, fee_percent: 0.5 })
  for (const a of accounts) {
    for (const channel of channels) {
      const res = await app.inject({ method: 'POST', url: '/api/v1/balance', headers: a.headers, payload: { amount: 50_000, channel } })
      if (res.statusCode !== 200) throw new Error(`seed top-up: ${res.body}`)
    }
  }
  await admin(app, 'POST', '/channels', { ...FUZZ_BANK, name: 'Fuzz BCA', type: 'bank_transfer', bank: 'BCA', account_name: 'Fuzz Store' })
  await restockBank(app, db, accounts)
  // As after a gateway's PAID with another total: top-ups only an operator can resolve.
  await sql`UPDATE topups SET status = 'review', gateway_status = 'PAID', paid_total = 1, review_reason = 'fuzz seed'
             WHERE channel = ${channels[1]}`.execute(db)
  for (const a of accounts) {
    await app.inject({ method: 'POST', url: '/api/v1/webhook/secret', headers: a.headers })
    for (const payload of [WEBHOOK, undefined]) {
      const res = await app.inject({
        method: payload ? 'PUT' : 'POST',
        url: payload ? '/api/v1/webhook' : '/api/v1/webhook/test',
        headers: a.headers,
        payload,
      })
      if (res.statusCode !== 200) throw new Error(`seed webhook: ${res.body}`)
    }
  }
  for (const a of accounts) {
    for (const role of ['owner', 'staff'])
      await admin(app, 'POST', `/resellers/${a.id}/users`, { email: `${role}-${a.id}@fuzz.example`, role })
  }
  // Empty ones, for the operator's deletes to reach.
  const spare = await admin(app, 'POST', '/categories', { name: 'Fuzz Spare' })
  for (const name of ['Spare 1', 'Spare 2', 'Spare 3']) await admin(app, 'POST', '/products', { name, category_id: spare.id })
  await admin(app, 'POST', '/categories', { name: 'Fuzz Empty' })
  // A second price level with a rule and a hand-set price, for the level routes to reach. Its rules only
  // raise prices: a level below the floor would make the accounts moved to it unable to buy (docs/design.md §5d).
  await admin(app, 'POST', '/price-levels', { code: 'fz-vip', name: 'Fuzz VIP', position: 1 })
  await admin(app, 'PUT', '/price-levels/fz-vip/rules', { rules: [{ scope: 'all', percent: 2, round_to: 50 }] })
  await admin(app, 'PUT', `/items/${items[0]!.id}/level-prices`, { 'fz-vip': items[0]!.price })
  // h2h lines whose requests the provider has seen and not answered yet: their complaints can be re-checked.
  const h2h = items.find((it) => it.order_process === 'h2h' && it.restore.provider === 'fz-h2h')!
  for (const [i, a] of accounts.entries()) {
    const res = await buy(app, a, `seed-h2h-${i}`, [{ item_id: h2h.id, quantity: 1, note: h2h.note }])
    if (res.statusCode !== 200) throw new Error(`seed h2h purchase: ${res.body}`)
  }
  await sql`UPDATE dispatches SET status = 'pending', attempts = 1, first_sent_at = now(), next_attempt_at = now() + interval '1 day'
             WHERE kind = 'digiflazz' AND status = 'queued'`.execute(db)
  // Pricing rules over brands no item has (nothing is repriced), for their delete to reach; the requests add more.
  for (const brand of ['Fuzz Brand 1', 'Fuzz Brand 2', 'Fuzz Brand 3'])
    await admin(app, 'PUT', '/pricing-rules', { scope: 'brand', provider: 'fz-h2h', brand, percent: 3 })
  const me = await seedTeam(app, db)
  // As after a crash between an smm add and its answer: requests only an operator can settle.
  await sql`UPDATE dispatches SET status = 'review', message = 'fuzz seed' WHERE kind = 'smm_panel'`.execute(db)
  const { rows } = await sql<{
    column_name: string
  }>`SELECT DISTINCT column_name FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1`.execute(db)
  const world: World = {
    accounts,
    items,
    ledgerItem,
    ledgerStock,
    providers,
    orders: [],
    lines: [],
    complaints: [],
    locks: [],
    sandboxes: [],
    channels,
    topups: [],
    bank: { channel: FUZZ_BANK.code, transfers: [], mutations: [] },
    dispatches: [],
    deliveries: [],
    users: [],
    held: [],
    categories: [],
    products: [],
    pricingRules: [],
    levels: [],
    me,
    operators: [],
    tokens: [],
    accountIds: [],
    columns: rows.map((r) => r.column_name),
  }
  await restockComplaints(db, world)
  await refresh(world, db)
  return world
}

/** Open complaints on the fuzz accounts' newest lines that take one (each operator step closes or answers one). */
async function restockComplaints(db: Database, world: World): Promise<void> {
  const { rows } = await sql<{ account_id: number; ref_id: string; line_id: number }>`
    SELECT o.account_id, o.ref_id, l.id AS line_id FROM order_lines l JOIN orders o ON o.id = l.order_id
     WHERE l.status IN ('pending', 'processing', 'delivered', 'sent') AND o.created_at > now() - interval '1 day'
       AND NOT EXISTS (SELECT 1 FROM complaints c WHERE c.order_line_id = l.id AND c.status <> 'closed')
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
async function seedTeam(app: App, db: Database): Promise<World['me']> {
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
const inviteSpares = async (app: App, n: number) => {
  for (let i = 0; i < n; i++)
    await admin(app, 'POST', '/operators', { email: `invited-${++invited}@fuzz.example`, name: `Invited ${invited}`, role: 'viewer' })
}

/** Re-reads the ids, refs and tokens the requests created or changed (the newest ones). */
const FUZZ_BANK = { code: 'FZBANK', account_number: '5550001234' }

/** Transfer top-ups to match and credits to match or ignore, as many as a run uses up (an operator's match takes one of each). */
async function restockBank(app: App, db: Database, accounts: Reseller[]): Promise<number> {
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
