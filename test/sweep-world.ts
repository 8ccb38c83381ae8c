import { sql } from 'kysely'
import { expect } from 'vitest'
import type { AppContext } from '../src/context.js'
import type { App } from '../src/http/server.js'
import { openComplaint } from '../src/modules/complaints/index.js'
import type { PaymentGateway } from '../src/modules/topups/index.js'
import { hashPassword } from '../src/passwords.js'
import { admin, createAutoItem, createItem, createReseller, type Reseller } from './factory.js'
import { buy } from './factory-orders.js'
import { operatorWithToken } from './team.js'
import { addSimulatedProvider, type Upstreams } from './upstreams.js'

// A small store with something for every operator write to act on (test/admin-calls.ts makes the calls),
// for the sweeps that go through every operator route (test/roles-sweep.test.ts, test/audit-sweep.test.ts).

// Plain values the store's secrets had: none may ever appear in the audit log.
export const SECRETS = {
  license: 'SWEEP-LICENSE-7f3a9c2e-voucher',
  manualLicense: 'SWEEP-MANUAL-DELIVERY-b41d-account:hunter2',
  providerKey: 'sweep-provider-api-key-9e8d7c6b5a',
  newProviderKey: 'sweep-provider-api-key-rotated-1a2b3c',
  password: 'sweep password 4d1e9f',
  totp: 'sealed-totp-secret-of-the-sweep',
}

type Person = Awaited<ReturnType<typeof operatorWithToken>>

export type SweepWorld = {
  a: Reseller
  b: Reseller
  /** The plain values of secrets made while building the world (API keys, a webhook secret, an invite token). */
  made: string[]
  provider: string
  items: { manual: number; auto: number; h2h: number; imported: Record<string, number> }
  orders: { send: { id: number; line: number }; cancel: number }
  dispatch: number
  user: number
  /** A dashboard user with a second factor, for its reset. */
  twoStepUser: number
  /** Operators: the sweep's own owner (the self routes), one with a second factor and a token to act on, one to remove. */
  self: Person
  target: Person & { tokenId: number }
  removable: Person
  category: number
  spareCategory: number
  product: number
  spareProduct: number
  channel: string
  topups: { pending: string; review: string; toExpire: string }
  delivery: number
  /** A bank_transfer channel, a pending transfer top-up to it, and two unmatched credits: one to match, one to ignore. */
  bank: { channel: string; topup: string; toMatch: number; toIgnore: number }
  /** Open complaints (docs/design.md §14): one to reply to and then reject, one to resend, one to refund, one to re-check upstream. */
  complaints: { reply: number; resend: number; refund: number; recheck: number }
}

/** The payment gateway of the sweeps: the simulator's links, and one channel of its own to import. */
export const sweepGateway: PaymentGateway = {
  name: 'simulator',
  async createPayment(request) {
    const reference = `SIM${request.invoice}`
    return { reference, paymentUrl: `http://127.0.0.1/sim/pay/${reference}`, fee: request.fee, expiresAt: request.expiresAt }
  },
  async listChannels() {
    const fees = { fee_flat: 750, fee_percent: 0.7, min_amount: 10_000, max_amount: 5_000_000 }
    return [{ code: 'SWGATE', name: 'Gateway QRIS', type: 'qris', ...fees, active: true }]
  },
}

/** A store with something for every operator write to act on, built through the API (and SQL where only a crash or a gateway gets there). */
export async function sweepWorld(app: App, ctx: AppContext, up: Upstreams): Promise<SweepWorld> {
  const made: string[] = []
  const a = await createReseller(app, { name: 'Sweep A', balance: 10_000_000 })
  const b = await createReseller(app, { name: 'Sweep B' })
  made.push(a.apiKey, b.apiKey)
  const secret = await app.inject({ method: 'POST', url: '/api/v1/webhook/secret', headers: b.headers })
  made.push(secret.json().data.webhook_secret)

  const provider = 'sw-dgf'
  await addSimulatedProvider(app, up, 'digiflazz', provider)
  await admin(app, 'POST', `/providers/${provider}/sync?force=true`)
  const { created } = await admin(app, 'POST', `/providers/${provider}/import`, { codes: ['ml86', 'ml172', 'tsel10'] })
  const imported = Object.fromEntries(created.map((c: { code: string; id: number }) => [c.code, c.id])) as Record<string, number>
  // Two jumps past SUPPLIER_PRICE_JUMP_PERCENT: held, one for approve and one for reject.
  up.digiflazz.priceLists.prepaid.change('ml86', { price: 39_000 })
  up.digiflazz.priceLists.prepaid.change('ml172', { price: 10_000 })
  await admin(app, 'POST', `/providers/${provider}/sync?force=true`)

  const manual = await createItem(app, { order_process: 'manual', stock: 100, price: 5_000 })
  const auto = await createAutoItem(app, 1)
  const h2h = await createItem(app, { order_process: 'h2h', price: 12_000, unlimited_stock: true, provider, provider_code: 'tsel10' })
  const ordered = async (ref: string, cart: { item_id: number; quantity: number; note?: string }) => {
    const res = await buy(app, a, ref, [cart])
    expect(res.statusCode, res.body).toBe(200)
    return res.json().data.id as number
  }
  const send = await ordered('sweep-send', { item_id: manual.id, quantity: 1, note: 'buyer@example.com' })
  const line = (await admin(app, 'GET', `/transactions/${send}`)).items[0].id as number
  const cancel = await ordered('sweep-cancel', { item_id: manual.id, quantity: 1, note: 'buyer@example.com' })
  const upstream = await ordered('sweep-h2h', { item_id: h2h.id, quantity: 1, note: '081234567890' })
  // As after a crash between the send and its answer: a request only an operator can settle.
  const [dispatch] = await sql<{ id: number }>`UPDATE dispatches SET status = 'review', message = 'sweep'
    WHERE order_id = ${upstream} RETURNING id`
    .execute(ctx.db)
    .then((r) => r.rows)

  const complaints = await sweepComplaints(app, ctx, a, manual.id, h2h.id)

  const invite = await admin(app, 'POST', `/resellers/${a.id}/users`, { email: 'owner-a@sweep.example', role: 'owner' })
  made.push(String(invite.invite_url).split('/').at(-1)!)
  // As after the invite was accepted: the removal logs a row that had a password.
  await ctx.db
    .updateTable('reseller_users')
    .set({ password_hash: await hashPassword(SECRETS.password), invite_hash: null })
    .where('id', '=', invite.id)
    .execute()

  const staff = await admin(app, 'POST', `/resellers/${a.id}/users`, { email: 'staff-a@sweep.example', role: 'owner' })
  made.push(String(staff.invite_url).split('/').at(-1)!)
  // As after each enrolled a phone: a second factor for the resets to clear.
  const twoStep = { totp_secret_enc: SECRETS.totp, totp_enabled_at: new Date(), recovery_code_hashes: ['sweep-recovery-hash'] }
  await ctx.db.updateTable('reseller_users').set(twoStep).where('id', '=', staff.id).execute()
  const self = await operatorWithToken(ctx, 'owner', 'self@sweep.example')
  const target = await operatorWithToken(ctx, 'support', 'target@sweep.example')
  const removable = await operatorWithToken(ctx, 'viewer', 'removable@sweep.example')
  made.push(self.token, target.token, removable.token)
  await ctx.db.updateTable('operators').set(twoStep).where('id', '=', target.id).execute()
  const targetToken = await ctx.db.selectFrom('operator_tokens').select('id').where('operator_id', '=', target.id).executeTakeFirstOrThrow()

  const category = await admin(app, 'POST', '/categories', { name: 'Sweep Games' })
  const spareCategory = await admin(app, 'POST', '/categories', { name: 'Sweep Spare' })
  const product = await admin(app, 'POST', '/products', { name: 'Sweep Voucher', category_id: category.id })
  const spareProduct = await admin(app, 'POST', '/products', { name: 'Sweep Empty', category_id: category.id })

  const channel = 'SWQRIS'
  await admin(app, 'POST', '/channels', { code: channel, name: 'Sweep QRIS', type: 'qris', fee_flat: 500, fee_percent: 0.5 })
  const topUp = async () => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/balance', headers: a.headers, payload: { amount: 50_000, channel } })
    expect(res.statusCode, res.body).toBe(200)
    return res.json().data.reference as string
  }
  const pending = await topUp()
  const toExpire = await topUp()
  const review = await topUp()
  // As after the gateway's PAID with another total.
  await sql`UPDATE topups SET status = 'review', gateway_status = 'PAID', paid_total = 1, review_reason = 'sweep'
             WHERE reference = ${review}`.execute(ctx.db)
  const bankChannel = 'SWBCA'
  await admin(app, 'POST', '/channels', {
    code: bankChannel,
    name: 'Sweep BCA',
    type: 'bank_transfer',
    bank: 'BCA',
    account_number: '7770001111',
    account_name: 'Sweep Store',
  })
  const transfer = await app.inject({
    method: 'POST',
    url: '/api/v1/balance',
    headers: a.headers,
    payload: { amount: 20_000, channel: bankChannel },
  })
  expect(transfer.statusCode, transfer.body).toBe(200)
  // As Moota would have pushed them: a credit without the code, and a stray one.
  const credits = await ctx.db
    .insertInto('bank_mutations')
    .values(
      ['sweep-odd', 'sweep-stray'].map((id, i) => ({
        mutation_id: id,
        source: 'moota' as const,
        bank_id: null,
        account_number: '7770001111',
        amount: i === 0 ? 20_000 : 123,
        type: 'CR' as const,
        description: 'sweep',
        date: null,
        raw: '{}',
      })),
    )
    .returning('id')
    .execute()
  const [delivery] = await ctx.db
    .insertInto('webhook_deliveries')
    .values({ account_id: a.id, event: 'order.paid', webhook_id: 'evt_sweep', status: 'failed', attempts: '[]' })
    .returning('id')
    .execute()

  return {
    a,
    b,
    made,
    provider,
    items: { manual: manual.id, auto: auto.id, h2h: h2h.id, imported },
    orders: { send: { id: send, line }, cancel },
    dispatch: dispatch!.id,
    user: invite.id,
    twoStepUser: staff.id,
    self,
    target: { ...target, tokenId: targetToken.id },
    removable,
    category: category.id,
    spareCategory: spareCategory.id,
    product: product.id,
    spareProduct: spareProduct.id,
    channel,
    topups: { pending, review, toExpire },
    delivery: delivery!.id,
    bank: { channel: bankChannel, topup: transfer.json().data.reference, toMatch: credits[0]!.id, toIgnore: credits[1]!.id },
    complaints,
  }
}

/** Complaints on sent manual lines, and one on an h2h line whose request the provider has seen (as after a send that got no answer yet). */
async function sweepComplaints(app: App, ctx: AppContext, a: Reseller, manual: number, h2h: number): Promise<SweepWorld['complaints']> {
  const complain = async (ref: string, cart: { item_id: number; quantity: number; note?: string }, send: boolean) => {
    const res = await buy(app, a, ref, [cart])
    expect(res.statusCode, res.body).toBe(200)
    const id = res.json().data.id as number
    const line = (await admin(app, 'GET', `/transactions/${id}`)).items[0].id as number
    if (send) await admin(app, 'POST', `/transactions/${id}/items/${line}/send`, { product_license: `sweep-${ref}` })
    else
      await sql`UPDATE dispatches SET status = 'pending', attempts = 1, first_sent_at = now(), next_attempt_at = now() + interval '1 day'
                 WHERE order_line_id = ${line}`.execute(ctx.db)
    const body = { order_item_id: line, reason: 'not_received' as const, message: 'sweep: not received' }
    return (await openComplaint(ctx.db, { now: new Date(), days: 7 }, a.id, ref, body, { name: 'sweep' })).id
  }
  const sent = { item_id: manual, quantity: 1, note: 'buyer@example.com' }
  return {
    reply: await complain('sweep-complaint-reply', sent, true),
    resend: await complain('sweep-complaint-resend', sent, true),
    refund: await complain('sweep-complaint-refund', sent, true),
    recheck: await complain('sweep-complaint-recheck', { item_id: h2h, quantity: 1, note: '081234567891' }, false),
  }
}
