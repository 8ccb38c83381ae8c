import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { freePort } from '../../../test/server-process.js'
import { seedDemo } from './demo.js'

// The promise: every demo item can be bought out of the box, the upstream ones through the
// app's own simulators under /sim/ (the demo's providers point at PUBLIC_URL), the items imported
// from the simulators' price lists too.
it('buys every demo item with the demo key, and each order completes over the simulators', async () => {
  const port = await freePort()
  const { app, ctx } = await createTestApp({ PUBLIC_URL: `http://127.0.0.1:${port}` })
  await app.listen({ port, host: '127.0.0.1' })
  const { apiKey } = (await seedDemo(ctx))!
  const headers = { 'x-apikey': apiKey }
  const catalog = (await app.inject({ method: 'GET', url: '/api/v1/item?per_page=all', headers })).json()
  const variants = catalog.data.flatMap((c: any) => c.products.flatMap((p: any) => p.variants))
  const notes: Record<string, string | undefined> = { h2h: '081234567891', smm: 'https://instagram.com/demo' }
  for (const v of variants) {
    // A postpaid bill is paid through /trx/tagihan, for a simulator customer who has one.
    const res = await app.inject(
      v.postpaid
        ? {
            method: 'POST',
            url: '/api/v1/trx/tagihan',
            headers,
            payload: { ref_id: `demo-${v.sku}`, item_id: v.id, customer_id: '530000000001' },
          }
        : {
            method: 'POST',
            url: '/api/v1/trx',
            headers,
            payload: { ref_id: `demo-${v.sku}`, carts: [{ item_id: v.id, quantity: v.min_order ?? 1, note: notes[v.order_process] }] },
          },
    )
    expect([v.sku, res.statusCode, res.json().message]).toEqual([v.sku, 200, 'OK'])
  }
  await ctx.fulfilment.upstream.runOnce()
  await sql`UPDATE dispatches SET next_attempt_at = now() WHERE status = 'pending'`.execute(ctx.db)
  await ctx.fulfilment.upstream.runOnce()
  await ctx.fulfilment.smmPoller.runOnce()
  for (const v of variants) {
    const body = (await app.inject({ method: 'GET', url: `/api/v1/trx/demo-${v.sku}`, headers })).json()
    // The manual item waits for the operator, as it should.
    expect([v.sku, body.data.status]).toEqual([v.sku, v.order_process === 'manual' ? 'paid' : 'completed'])
  }
})
