import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { admin, createItem, createReseller, get, type Reseller } from '../../../test/factory.js'
import { balanceOf, buy } from '../../../test/factory-orders.js'
import { assertInvariants } from '../../../test/invariants.js'
import { freePort } from '../../../test/server-process.js'
import { addSimulatedProvider, addSimulatedProviders, startUpstreams } from '../../../test/upstreams.js'

// The adapters against the simulators over real HTTP (a listener on 127.0.0.1), the workers driven by runOnce.
// The provider timeout is generous: a busy machine's simulator must never read as a provider that hangs.
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '3000' })
const up = await startUpstreams()
afterAll(() => up.close())

await addSimulatedProviders(app, up)
const h2h = await createItem(app, { order_process: 'h2h', price: 10_000, unlimited_stock: true, provider: 'dgf', provider_code: 'ml86' })
const smm = await createItem(app, { order_process: 'smm', price: 333, unlimited_stock: true, provider: 'panel', provider_code: '7' })

const dispatch = () => ctx.fulfilment.upstream.runOnce()
/** The poll interval has passed for every pending request, then one poller round. */
async function poll() {
  await sql`UPDATE dispatches SET next_attempt_at = now() WHERE status IN ('pending', 'queued')`.execute(ctx.db)
  await ctx.fulfilment.upstream.runOnce()
  await ctx.fulfilment.smmPoller.runOnce()
}
async function bought(r: Reseller, ref: string, carts: { item_id: number; quantity: number; note?: string }[]) {
  const res = await buy(app, r, ref, carts)
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data as { id: number; amount: number }
}
async function trx(r: Reseller, ref: string) {
  const res = await get(app, `/trx/${ref}`, r)
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}
const refundsOf = (orderId: number) =>
  ctx.db
    .selectFrom('ledger_entries')
    .select(['amount', 'order_line_id'])
    .where('order_id', '=', orderId)
    .where('type', '=', 'refund')
    .execute()
const events = async (orderId: number) =>
  (await ctx.db.selectFrom('outbox_events').select('events').where('order_id', '=', orderId).orderBy('id').execute()).flatMap(
    (e) => e.events,
  )

describe('h2h over the Digiflazz protocol', () => {
  it('delivers with the serial number: completed, h2h_results top level and in data, nothing refunded', async () => {
    const r = await createReseller(app, { balance: 50_000 })
    const order = await bought(r, 'h2h-ok', [{ item_id: h2h.id, quantity: 1, note: '081234567891' }])
    expect((await trx(r, 'h2h-ok')).data.status).toBe('paid')
    // The provider's code and the item's provider_meta beside each request (the public docs' fields).
    const provided = { h2h_provider: 'dgf', provider_meta: { open_denom: false, min_qty: null, max_qty: null, step_qty: null } }
    expect((await trx(r, 'h2h-ok')).h2h_results).toEqual([
      { variant_id: h2h.id, sn: '', dispatch_status: 'pending', log_message: '', ...provided },
    ])
    await dispatch()
    const body = await trx(r, 'h2h-ok')
    expect(body.data.status).toBe('completed')
    expect(body.h2h_results).toEqual([
      {
        variant_id: h2h.id,
        sn: expect.stringMatching(/^SN[0-9A-F]{16}$/),
        dispatch_status: 'completed',
        log_message: 'Transaksi Sukses',
        ...provided,
      },
    ])
    expect(body.data.h2h_results).toEqual(body.h2h_results)
    // A delivered line reads completed, the public docs' word.
    expect(body.data.items[0]).toMatchObject({ order_process: 'h2h', status: 'completed', target: '081234567891', product_license: null })
    expect(await balanceOf(app, r)).toBe(40_000)
    expect(await refundsOf(order.id)).toEqual([])
    expect(await events(order.id)).toEqual(['order.paid', 'order.completed'])
    const [sent] = up.digiflazz.requests.filter((q) => q.customer_no === '081234567891')
    expect(sent).toEqual({
      ref_id: expect.stringMatching(/^INV\d{8}[A-Z0-9]{8}-1-1$/),
      customer_no: '081234567891',
      buyer_sku_code: 'ml86',
    })
  })

  it('a Gagal answer cancels the order and refunds it in full, once', async () => {
    const r = await createReseller(app, { balance: 50_000 })
    const order = await bought(r, 'h2h-fail', [{ item_id: h2h.id, quantity: 1, note: '081200000002' }])
    await dispatch()
    await poll()
    const body = await trx(r, 'h2h-fail')
    expect(body.data.status).toBe('canceled')
    expect(body.h2h_results).toEqual([
      {
        variant_id: h2h.id,
        sn: 'failed: Nomor tujuan salah',
        dispatch_status: 'failed',
        log_message: 'Nomor tujuan salah',
        h2h_provider: 'dgf',
        provider_meta: { open_denom: false, min_qty: null, max_qty: null, step_qty: null },
      },
    ])
    expect(body.data.items[0].status).toBe('refunded')
    expect(await balanceOf(app, r)).toBe(50_000)
    expect(await refundsOf(order.id)).toHaveLength(1)
    expect(await events(order.id)).toEqual(['order.paid', 'order.canceled'])
  })

  it('a Pending answer is settled by re-sending the same ref_id', async () => {
    const r = await createReseller(app, { balance: 50_000 })
    await bought(r, 'h2h-later', [{ item_id: h2h.id, quantity: 1, note: '081200000003' }])
    await dispatch()
    const pending = await trx(r, 'h2h-later')
    expect(pending.data.status).toBe('paid')
    expect(pending.h2h_results[0]).toMatchObject({ dispatch_status: 'pending', sn: '', log_message: 'Transaksi Pending' })
    expect(pending.data.items[0].status).toBe('processing')
    await poll()
    const body = await trx(r, 'h2h-later')
    expect(body.data.status).toBe('completed')
    expect(body.h2h_results[0]).toMatchObject({ dispatch_status: 'completed', sn: expect.stringMatching(/^SN/) })
    const sent = up.digiflazz.requests.filter((q) => q.customer_no === '081200000003')
    expect(sent).toHaveLength(2)
    expect(sent[1]).toEqual(sent[0])
    expect(await balanceOf(app, r)).toBe(40_000)
  })

  it('quantity N is N requests, each its own ref_id', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const order = await bought(r, 'h2h-three', [{ item_id: h2h.id, quantity: 3, note: '0812777771' }])
    await dispatch()
    const body = await trx(r, 'h2h-three')
    expect(body.h2h_results).toHaveLength(3)
    const refs = up.digiflazz.requests.filter((q) => q.customer_no === '0812777771').map((q) => q.ref_id)
    expect(new Set(refs).size).toBe(3)
    expect(body.data.status).toBe('completed')
    expect(order.amount).toBe(30_000)

    expect((await buy(app, r, 'h2h-many', [{ item_id: h2h.id, quantity: 101, note: '0812' }])).json()).toMatchObject({
      message: 'VALIDATION_ERROR',
      errors: { 'carts.0.quantity': [expect.any(String)] },
    })
  })

  describe('open denomination (DANA at Rp 1,010 per 1,000)', () => {
    const dana = createItem(app, {
      order_process: 'h2h',
      price: 1_010,
      unlimited_stock: true,
      provider: 'dgf',
      provider_code: 'dana',
      provider_meta: { open_denom: true, min_qty: 10_000, max_qty: 1_000_000, step_qty: 1_000, price_unit: 1_000, qty_label: 'Saldo DANA' },
    })
    const note = (provider_qty: unknown, target = '0812555551') => JSON.stringify({ target, provider_qty })

    it('charges ceil(price × provider_qty / price_unit) and sends that nominal upstream as qty, in one request', async () => {
      const item = await dana
      const r = await createReseller(app, { balance: 100_000 })
      const order = await bought(r, 'dana-ok', [{ item_id: item.id, quantity: 1, note: note(50_000) }])
      expect(order.amount).toBe(50_500)
      expect(await balanceOf(app, r)).toBe(49_500)
      await dispatch()
      const body = await trx(r, 'dana-ok')
      expect(body.data.status).toBe('completed')
      expect(body.h2h_results).toHaveLength(1)
      expect(body.data.items[0]).toMatchObject({ quantity: 1, price: 50_500, subtotal: 50_500 })
      expect(up.digiflazz.requests.filter((q) => q.customer_no === '0812555551')).toEqual([
        { ref_id: expect.any(String), customer_no: '0812555551', buyer_sku_code: 'dana', qty: 50_000 },
      ])
      // A note sent as a JSON object is the same note (the public docs type it string|json).
      const asObject = await bought(r, 'dana-object', [
        { item_id: item.id, quantity: 1, note: { target: '0812555561', provider_qty: 10_000 } as never },
      ])
      expect(asObject.amount).toBe(10_100)
    })

    it('refuses a nominal off its bounds or grid, a missing one, and a quantity other than 1, with the bounds in words; nothing is charged', async () => {
      const item = await dana
      const r = await createReseller(app, { balance: 100_000 })
      const bounds = 'an integer from 10000 to 1000000, in steps of 1000 from 10000'
      for (const [label, cart, field, sentence] of [
        ['below the minimum', { quantity: 1, note: note(999) }, 'carts.0.note', `provider_qty must be ${bounds}`],
        ['off the grid', { quantity: 1, note: note(10_500) }, 'carts.0.note', `provider_qty must be ${bounds}`],
        ['above the maximum', { quantity: 1, note: note(1_001_000) }, 'carts.0.note', `provider_qty must be ${bounds}`],
        ['as text', { quantity: 1, note: note('50000') }, 'carts.0.note', `provider_qty must be ${bounds}`],
        [
          'missing',
          { quantity: 1, note: JSON.stringify({ target: '0812555551' }) },
          'carts.0.note',
          expect.stringContaining('provider_qty'),
        ],
        ['a plain note', { quantity: 1, note: '0812555551' }, 'carts.0.note', expect.stringContaining('provider_qty')],
        ['quantity 2', { quantity: 2, note: note(10_000) }, 'carts.0.quantity', expect.stringContaining('must be 1')],
      ] as const) {
        const res = await buy(app, r, `dana-bad-${label}`, [{ item_id: item.id, ...cart }])
        expect([res.statusCode, res.json()], label).toEqual([422, { message: 'VALIDATION_ERROR', errors: { [field]: [sentence] } }])
        // The sandbox runs the same rules (docs/design.md §10).
        const sandbox = await app.inject({
          method: 'POST',
          url: '/api/v1/order/sandbox',
          headers: r.headers,
          payload: { ref_id: `dana-sbx-${label}`, item_id: item.id, ...cart },
        })
        expect([sandbox.statusCode, sandbox.json().errors?.[field.replace('carts.0.', '')]], `sandbox ${label}`).toEqual([422, [sentence]])
      }
      expect(await balanceOf(app, r)).toBe(100_000)
    })

    it('a failed request refunds what was charged, once', async () => {
      const item = await dana
      const r = await createReseller(app, { balance: 100_000 })
      const order = await bought(r, 'dana-fail', [{ item_id: item.id, quantity: 1, note: note(20_000, '0812555552') }])
      expect(order.amount).toBe(20_200)
      await dispatch()
      await poll()
      expect((await trx(r, 'dana-fail')).data.status).toBe('canceled')
      expect(await refundsOf(order.id)).toEqual([{ amount: 20_200, order_line_id: expect.any(Number) }])
      expect(await balanceOf(app, r)).toBe(100_000)
    })
  })

  it('provider down (timeouts): stays pending with no refund, settles with the same ref_id when it is back', async () => {
    const r = await createReseller(app, { balance: 50_000 })
    const order = await bought(r, 'h2h-down', [{ item_id: h2h.id, quantity: 1, note: '081299999991' }])
    up.hang = true
    await dispatch()
    await poll()
    expect(up.held).toBeGreaterThanOrEqual(2)
    const stuck = await trx(r, 'h2h-down')
    expect(stuck.data.status).toBe('paid')
    expect(stuck.h2h_results[0]).toMatchObject({
      dispatch_status: 'pending',
      log_message: expect.stringContaining(`no answer within ${ctx.config.providerTimeoutMs} ms`),
    })
    expect(await refundsOf(order.id)).toEqual([])
    expect(await balanceOf(app, r)).toBe(40_000)
    up.hang = false
    await poll()
    expect((await trx(r, 'h2h-down')).data.status).toBe('completed')
    const row = await ctx.db
      .selectFrom('dispatches')
      .select(['upstream_ref', 'attempts'])
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow()
    expect(up.digiflazz.requests.filter((q) => q.customer_no === '081299999991').map((q) => q.ref_id)).toEqual([row.upstream_ref])
    expect(row.attempts).toBe(3)
  })

  it('an item whose provider is switched off answers PRODUCT_TEMPORARILY_UNAVAILABLE and debits nothing', async () => {
    const r = await createReseller(app, { balance: 50_000 })
    await addSimulatedProvider(app, up, 'digiflazz', 'dgf-off')
    const item = await createItem(app, {
      order_process: 'h2h',
      price: 1_000,
      unlimited_stock: true,
      provider: 'dgf-off',
      provider_code: 'x',
    })
    await admin(app, 'PATCH', '/providers/dgf-off', { active: false })
    const res = await buy(app, r, 'off-1', [{ item_id: item.id, quantity: 1, note: '0812' }])
    expect(res.statusCode).toBe(503)
    expect(res.json().message).toBe('PRODUCT_TEMPORARILY_UNAVAILABLE')
    expect(await balanceOf(app, r)).toBe(50_000)
  })

  it('an h2h item with no provider answers PRODUCT_TEMPORARILY_UNAVAILABLE and debits nothing', async () => {
    const r = await createReseller(app, { balance: 50_000 })
    const item = await createItem(app, { order_process: 'h2h', price: 1_000, unlimited_stock: true })
    const res = await buy(app, r, 'unmapped-1', [{ item_id: item.id, quantity: 1, note: '0812' }])
    expect(res.statusCode).toBe(503)
    expect(res.json().message).toBe('PRODUCT_TEMPORARILY_UNAVAILABLE')
    expect(await balanceOf(app, r)).toBe(50_000)
  })
})

describe('smm over the SMM panel API v2', () => {
  it('Completed: delivered_count is the quantity, nothing refunded', async () => {
    const r = await createReseller(app, { balance: 50_000 })
    await bought(r, 'smm-ok', [{ item_id: smm.id, quantity: 10, note: 'https://instagram.com/someone1' }])
    await dispatch()
    const placed = await trx(r, 'smm-ok')
    expect(placed.smm_results).toEqual([
      {
        variant_id: smm.id,
        order_id: expect.stringMatching(/^\d+$/),
        status: 'Pending',
        start_count: 0,
        remains: 10,
        provider_status: 'Pending',
        delivered_count: 0,
        refund_amount: 0,
        partial_refund_pending_manual: false,
      },
    ])
    await poll()
    const body = await trx(r, 'smm-ok')
    expect(body.data.status).toBe('completed')
    expect(body.smm_results).toEqual([
      {
        variant_id: smm.id,
        order_id: placed.smm_results[0].order_id,
        status: 'Completed',
        start_count: 1200,
        remains: 0,
        provider_status: 'Completed',
        delivered_count: 10,
        refund_amount: 0,
        partial_refund_pending_manual: false,
      },
    ])
    expect(body.data.smm_results).toEqual(body.smm_results)
    // The line itself says it is an smm line and what the panel last said (docs/design.md §8), in retrieval as in payloads.
    expect(placed.data.items[0]).toMatchObject({ is_smm: true, provider_status: 'Pending' })
    expect(body.data.items[0]).toMatchObject({ is_smm: true, provider_status: 'Completed' })
    expect(up.smm.adds.filter((a) => a.link === 'https://instagram.com/someone1')).toEqual([
      { service: '7', link: 'https://instagram.com/someone1', quantity: 10 },
    ])
    expect(await balanceOf(app, r)).toBe(50_000 - 3_330)
  })

  it('Partial: refund = floor(amount × remains / quantity), shown as refund_amount; the order completes', async () => {
    const r = await createReseller(app, { balance: 50_000 })
    const order = await bought(r, 'smm-partial', [
      { item_id: smm.id, quantity: 7, note: JSON.stringify({ target: 'https://instagram.com/x4', comment_smm: 'hi' }) },
    ])
    await dispatch()
    await poll()
    const body = await trx(r, 'smm-partial')
    // remains floor(7 × 0.4) = 2: floor(2331 × 2 / 7) = 666
    expect(body.smm_results[0]).toMatchObject({
      status: 'Partial',
      provider_status: 'Partial',
      remains: 2,
      delivered_count: 5,
      refund_amount: 666,
      // Refunded as the panel reported it: nothing waits for an operator.
      partial_refund_pending_manual: false,
    })
    expect(body.data.status).toBe('completed')
    expect(body.data.items[0].status).toBe('completed')
    expect(await refundsOf(order.id)).toEqual([{ amount: 666, order_line_id: expect.any(Number) }])
    expect(await balanceOf(app, r)).toBe(50_000 - 2_331 + 666)
  })

  it('Canceled: refunded in full, the order canceled; an unknown order id stays pending', async () => {
    const r = await createReseller(app, { balance: 50_000 })
    await bought(r, 'smm-cancel', [{ item_id: smm.id, quantity: 5, note: 'https://instagram.com/no2' }])
    await dispatch()
    await poll()
    const body = await trx(r, 'smm-cancel')
    expect(body.data.status).toBe('canceled')
    expect(body.smm_results[0]).toMatchObject({ status: 'Canceled', delivered_count: 0, refund_amount: 1_665 })
    expect(await balanceOf(app, r)).toBe(50_000)

    await bought(r, 'smm-lost', [{ item_id: smm.id, quantity: 5, note: 'https://instagram.com/lost1' }])
    await dispatch()
    await sql`UPDATE dispatches SET upstream_order_id = '999999999999' WHERE target = 'https://instagram.com/lost1'`.execute(ctx.db)
    await poll()
    const lost = await trx(r, 'smm-lost')
    expect(lost.data.status).toBe('paid')
    const row = await ctx.db
      .selectFrom('dispatches')
      .select(['status', 'message'])
      .where('target', '=', 'https://instagram.com/lost1')
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ status: 'pending', message: 'Incorrect order ID' })
  })

  it('a multi-line cart with one failed line: that line refunded, the order completed', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const order = await bought(r, 'cart-mixed', [
      { item_id: h2h.id, quantity: 1, note: '081255555551' },
      { item_id: h2h.id, quantity: 1, note: '081255555552' },
      { item_id: smm.id, quantity: 10, note: 'https://instagram.com/mixed1' },
    ])
    await dispatch()
    await poll()
    const body = await trx(r, 'cart-mixed')
    expect(body.data.status).toBe('completed')
    expect(body.data.items.map((i: any) => i.status)).toEqual(['completed', 'refunded', 'completed'])
    expect(body.h2h_results.map((h: any) => h.dispatch_status)).toEqual(['completed', 'failed'])
    expect(await refundsOf(order.id)).toEqual([{ amount: 10_000, order_line_id: body.data.items[1].id ?? expect.any(Number) }])
    expect(await balanceOf(app, r)).toBe(100_000 - 23_330 + 10_000)
  })

  it('a panel that cannot be reached is tried again later (nothing was sent); an unreadable answer goes to review, never a second add', async () => {
    const r = await createReseller(app, { balance: 50_000 })
    await admin(app, 'POST', '/providers', {
      code: 'panel-gone',
      kind: 'smm_panel',
      base_url: `http://127.0.0.1:${await freePort()}/api/v2`,
      api_key: 'k',
    })
    const gone = await createItem(app, {
      order_process: 'smm',
      price: 100,
      unlimited_stock: true,
      provider: 'panel-gone',
      provider_code: '1',
    })
    await bought(r, 'smm-gone', [{ item_id: gone.id, quantity: 1, note: 'https://x/1' }])
    await dispatch()
    expect(
      await ctx.db.selectFrom('dispatches').select(['status', 'message']).where('target', '=', 'https://x/1').executeTakeFirstOrThrow(),
    ).toEqual({ status: 'queued', message: 'connection refused' })

    await bought(r, 'smm-hung', [{ item_id: smm.id, quantity: 1, note: 'https://x/hung1' }])
    up.hang = true
    await dispatch()
    up.hang = false
    const row = await ctx.db
      .selectFrom('dispatches')
      .select(['id', 'status'])
      .where('target', '=', 'https://x/hung1')
      .executeTakeFirstOrThrow()
    expect(row.status).toBe('review')
    await poll()
    await dispatch()
    expect(up.smm.adds.filter((a) => a.link === 'https://x/hung1')).toEqual([])
    const review = await admin(app, 'GET', '/dispatches?status=review')
    expect(review.map((d: any) => d.id)).toContain(row.id)

    // The operator looked at the panel: nothing there. Resolved as failed, refunded once.
    expect((await admin(app, 'POST', `/dispatches/${row.id}/resolve`, { outcome: 'failed', reason: 'not at the panel' })).status).toBe(
      'failed',
    )
    expect((await trx(r, 'smm-hung')).data.status).toBe('canceled')
    const again = await app.inject({
      method: 'POST',
      url: `/api/admin/v1/dispatches/${row.id}/resolve`,
      headers: { authorization: 'Bearer test-admin-token-0123456789' },
      payload: { outcome: 'failed' },
    })
    expect(again.statusCode).toBe(409)
  })
})

describe('operator cancel of upstream lines', () => {
  it('refunds a line never sent at once; a line at its provider is cancel_requested and settled by its answer', async () => {
    const r = await createReseller(app, { balance: 100_000 })
    const unsent = await bought(r, 'cancel-unsent', [{ item_id: h2h.id, quantity: 2, note: '0812111' }])
    expect(await admin(app, 'POST', `/transactions/${unsent.id}/cancel`, { reason: 'customer asked' })).toMatchObject({
      status: 'canceled',
      refunded_lines: 1,
    })
    await dispatch()
    expect(up.digiflazz.requests.filter((q) => q.customer_no === '0812111')).toEqual([])
    expect((await trx(r, 'cancel-unsent')).h2h_results.map((h: any) => h.sn)).toEqual([
      'failed: canceled before it was sent',
      'failed: canceled before it was sent',
    ])

    const sent = await bought(r, 'cancel-sent', [
      { item_id: h2h.id, quantity: 1, note: '081200000003' },
      { item_id: smm.id, quantity: 3, note: 'https://x/c1' },
    ])
    await ctx.fulfilment.lineDispatchers[0].dispatch(
      (
        await ctx.db
          .selectFrom('order_lines')
          .select('id')
          .where('order_id', '=', sent.id)
          .where('position', '=', 0)
          .executeTakeFirstOrThrow()
      ).id,
    )
    expect(await admin(app, 'POST', `/transactions/${sent.id}/cancel`, { reason: 'customer asked' })).toMatchObject({
      status: 'paid',
      refunded_lines: 1,
    })
    const asked = await trx(r, 'cancel-sent')
    expect(asked.data.items.map((i: any) => i.status)).toEqual(['cancel_requested', 'refunded'])
    await poll()
    const body = await trx(r, 'cancel-sent')
    expect(body.data.status).toBe('completed')
    expect(body.data.items.map((i: any) => i.status)).toEqual(['completed', 'refunded'])
    expect(up.smm.adds.filter((a) => a.link === 'https://x/c1')).toEqual([])
  })
})

it('the ledger invariants hold after all of it', async () => {
  await assertInvariants(ctx.db)
})
