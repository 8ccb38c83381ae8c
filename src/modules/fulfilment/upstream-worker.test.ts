import http from 'node:http'
import type net from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { eventually } from '../../../test/eventually.js'
import { admin, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { assertInvariants } from '../../../test/invariants.js'

// A Digiflazz-speaking fake on 127.0.0.1 whose answers take their time: what each ref asked, and how
// many requests were out at once, overall and per ref.
type Answer = { rc: string; status: string; delayMs: number }
function slowProvider(answerFor: (customerNo: string) => Answer) {
  const sent: { ref: string; customer: string; at: number }[] = []
  const open = new Map<string, number>()
  let inFlight = 0
  let maxInFlight = 0
  let overlapsPerRef = 0
  const server = http.createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk) => (raw += chunk))
    req.on('end', () => {
      const body = JSON.parse(raw) as { ref_id: string; customer_no: string }
      sent.push({ ref: body.ref_id, customer: body.customer_no, at: Date.now() })
      maxInFlight = Math.max(maxInFlight, ++inFlight)
      if ((open.get(body.ref_id) ?? 0) > 0) overlapsPerRef++
      open.set(body.ref_id, (open.get(body.ref_id) ?? 0) + 1)
      const answer = answerFor(body.customer_no)
      setTimeout(() => {
        inFlight--
        open.set(body.ref_id, open.get(body.ref_id)! - 1)
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ data: { ref_id: body.ref_id, rc: answer.rc, status: answer.status, message: answer.status, sn: 'SN1' } }))
      }, answer.delayMs)
    })
  })
  return {
    sent,
    stats: () => ({ maxInFlight, overlapsPerRef }),
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/v1`
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

const provider = slowProvider((customer) =>
  customer.endsWith('49')
    ? { rc: '49', status: 'Gagal', delayMs: 10 }
    : customer.endsWith('3')
      ? { rc: '03', status: 'Pending', delayMs: 1_500 }
      : { rc: '00', status: 'Sukses', delayMs: 200 },
)
const baseUrl = await provider.listen()
afterAll(() => provider.close())

const { app, ctx } = await createTestApp({ PROVIDER_POLL_SECONDS: '1', PROVIDER_TIMEOUT_MS: '5000' })
await admin(app, 'POST', '/providers', { code: 'slow', kind: 'digiflazz', base_url: baseUrl, username: 'u', api_key: 'k' })
const item = await createItem(app, { order_process: 'h2h', price: 1_000, unlimited_stock: true, provider: 'slow', provider_code: 'p1' })

const dispatchStates = (prefix: string) =>
  ctx.db
    .selectFrom('dispatches as d')
    .innerJoin('orders as o', 'o.id', 'd.order_id')
    .select(['d.status', 'd.upstream_ref'])
    .where('o.ref_id', 'like', `${prefix}%`)
    .execute()

describe('the upstream worker', () => {
  it('sends as soon as a purchase commits, many at once up to the host bound, each ref once', async () => {
    // A minute's safety poll: only the commit's NOTIFY can make the first request go out quickly.
    const worker = await ctx.fulfilment.upstreamWorker({ concurrency: 64, perHost: 8, pollMs: 60_000 }).start(ctx.listen, console)
    try {
      const r = await createReseller(app, { balance: 1_000_000 })
      const purchases = Array.from({ length: 40 }, (_, i) =>
        buy(app, r, `burst-${i}`, [{ item_id: item.id, quantity: 1, note: `08120000${i}0` }]),
      )
      for (const res of await Promise.all(purchases)) expect(res.statusCode, res.body).toBe(200)
      const rows = await eventually(
        'burst dispatches completed',
        () => dispatchStates('burst-'),
        (rs) => rs.length === 40 && rs.every((d) => d.status === 'completed'),
        { timeoutMs: 30_000, intervalMs: 50 },
      )
      const refs = provider.sent.filter((s) => s.customer.startsWith('08120000')).map((s) => s.ref)
      expect(refs.sort()).toEqual(rows.map((d) => d.upstream_ref).sort())
      // 40 requests of 200 ms each: never more than the bound at once, and more than one (how many
      // overlap within 200 ms depends on the machine's speed, so only the bound is exact).
      expect(provider.stats().maxInFlight).toBeLessThanOrEqual(8)
      expect(provider.stats().maxInFlight).toBeGreaterThan(1)
    } finally {
      await worker.stop()
    }
    await assertInvariants(ctx.db)
  })

  it('never re-checks a pending request while its last send is still out; rc 49 stays pending, never refunded', async () => {
    const worker = await ctx.fulfilment.upstreamWorker({ concurrency: 64, perHost: 64, pollMs: 200 }).start(ctx.listen, console)
    try {
      const r = await createReseller(app, { balance: 100_000 })
      for (let i = 0; i < 5; i++)
        expect((await buy(app, r, `slow-${i}`, [{ item_id: item.id, quantity: 1, note: `0813000${i}3` }])).statusCode).toBe(200)
      expect((await buy(app, r, 'known-ref', [{ item_id: item.id, quantity: 1, note: '081300049' }])).statusCode).toBe(200)
      // Pending answers take 1.5 s against a 1 s poll: each ref is asked again, never while asked.
      await eventually(
        'second checks of the pending requests',
        () => provider.sent.filter((s) => s.customer.startsWith('0813000')).length,
        (n) => n >= 10,
        { timeoutMs: 30_000, intervalMs: 50 },
      )
      expect(provider.stats().overlapsPerRef).toBe(0)
      const known = await dispatchStates('known-ref')
      expect(known.map((d) => d.status)).toEqual(['pending'])
      const refunds = await ctx.db
        .selectFrom('ledger_entries')
        .select('id')
        .where('account_id', '=', r.id)
        .where('type', '=', 'refund')
        .execute()
      expect(refunds).toEqual([])
    } finally {
      await worker.stop()
    }
    await assertInvariants(ctx.db)
  })
})
