import { sql } from 'kysely'
import type { Database } from '../src/db/database.js'
import type { App } from '../src/http/server.js'
import { admin, createAutoItem, createItem, createReseller, get, type Reseller } from './factory.js'
import { buy } from './factory-orders.js'
import { FUNDS, FUZZ_BANK, refresh, restockBank, restockComplaints, seedTeam, WEBHOOK } from './fuzz-upkeep.js'

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
