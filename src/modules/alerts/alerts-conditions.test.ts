import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { admin, createItem } from '../../../test/factory.js'
import { buy, relayEvents } from '../../../test/factory-orders.js'
import { subscriber } from '../../../test/factory-webhooks.js'
import { startReceiver } from '../../../test/receiver.js'
import { addSimulatedProvider, startUpstreams } from '../../../test/upstreams.js'
import { alertEvaluateDeps } from '../../workers/index.js'
import { createWebhookWorker } from '../webhooks/index.js'
import { evaluateAlerts } from './index.js'

// The conditions as the database shows them (docs/design.md §11e); rows aged or added by SQL stand in
// for minutes passing and for traffic, never a wait.
const { app, ctx } = await createTestApp({ PROVIDER_TIMEOUT_MS: '1500', ALERT_FAILURE_PERCENT: '50' })
const up = await startUpstreams()
afterAll(() => up.close())
await addSimulatedProvider(app, up, 'digiflazz', 'dgf')
await admin(app, 'POST', '/providers/dgf/sync?force=true')
const item = await createItem(app, { order_process: 'h2h', price: 40_000, unlimited_stock: true, provider: 'dgf', provider_code: 'ml86' })
expect(item.id).toBeTruthy()
const receiver = await startReceiver(() => ({ status: 503 }))
const shop = await subscriber(app, receiver.url)
const bought = await buy(app, shop, 'alert-cond-1', [{ item_id: item.id, quantity: 1, note: '081277700001' }])
expect(bought.statusCode, bought.body).toBe(200)
const orderId = bought.json().data.id as number

const evaluate = () => evaluateAlerts(alertEvaluateDeps(ctx))
const openAlerts = () =>
  ctx.db.selectFrom('alerts').select(['kind', 'subject', 'message']).where('cleared_at', 'is', null).orderBy('id').execute()

describe('alert conditions', () => {
  it('fires for a provider whose finished requests mostly failed in 10 minutes, and for a queue waiting over 2 minutes', async () => {
    // The order's request waits queued (no worker runs): 3 minutes old now.
    await sql`UPDATE dispatches SET created_at = now() - interval '3 minutes' WHERE order_id = ${orderId}`.execute(ctx.db)
    // 25 finished requests beside it: 19 failed (76 %, over ALERT_FAILURE_PERCENT=50), 6 completed.
    await sql`INSERT INTO dispatches (order_id, order_line_id, seq, provider, kind, upstream_ref, provider_code, target, quantity, amount,
                                      status, cost, finished_at)
              SELECT d.order_id, d.order_line_id, d.seq + g, d.provider, d.kind, d.upstream_ref || '-' || g, d.provider_code, d.target,
                     d.quantity, d.amount, CASE WHEN g <= 19 THEN 'failed' ELSE 'completed' END, 100000, now()
                FROM dispatches d, generate_series(1, 25) g WHERE d.order_id = ${orderId}`.execute(ctx.db)
    const changes = await evaluate()
    expect(changes.provider_failures).toEqual({ started: 1, cleared: 0 })
    expect(changes.upstream_queue_stalled).toEqual({ started: 1, cleared: 0 })
    expect(await openAlerts()).toEqual([
      {
        kind: 'provider_failures',
        subject: 'dgf',
        message: 'Provider dgf: 19 of 25 requests failed in the last 10 minutes (76%, alert over 50%)',
      },
      {
        kind: 'upstream_queue_stalled',
        subject: '',
        message: 'Upstream queue stalled: the oldest of 1 queued request has waited 3 minutes',
      },
    ])

    // Older than 10 minutes, the failures no longer count; the queue emptied, its alert clears too.
    await sql`UPDATE dispatches SET finished_at = now() - interval '11 minutes' WHERE order_id = ${orderId} AND finished_at IS NOT NULL`.execute(
      ctx.db,
    )
    await sql`UPDATE dispatches SET status = 'void', finished_at = now() - interval '11 minutes' WHERE order_id = ${orderId} AND status = 'queued'`.execute(
      ctx.db,
    )
    const after = await evaluate()
    expect(after.provider_failures).toEqual({ started: 0, cleared: 1 })
    expect(after.upstream_queue_stalled).toEqual({ started: 0, cleared: 1 })
  })

  it('fires for a balance lasting fewer hours than balance_alert_hours at the last 24 hours spend', async () => {
    await sql`UPDATE dispatches SET finished_at = now() - interval '1 hour' WHERE order_id = ${orderId} AND status = 'completed'`.execute(
      ctx.db,
    )
    up.digiflazz.deposit.amount = 300_000
    await admin(app, 'POST', '/providers/dgf/balance/refresh')
    // 6 × 100,000 spent in 24 hours: 300,000 lasts 12 hours, under the 24 asked for.
    await sql`UPDATE providers SET balance_alert_hours = 24 WHERE code = 'dgf'`.execute(ctx.db)
    expect((await evaluate()).supplier_balance_low).toEqual({ started: 1, cleared: 0 })
    expect((await openAlerts()).find((a) => a.kind === 'supplier_balance_low')?.message).toBe(
      "Supplier dgf: balance IDR 300,000, 12 hours left at the last 24 hours' spend of IDR 600,000 (alert under 24)",
    )
    await sql`UPDATE providers SET balance_alert_hours = 6 WHERE code = 'dgf'`.execute(ctx.db)
    expect((await evaluate()).supplier_balance_low).toEqual({ started: 0, cleared: 1 })
  })

  it('fires for an account whose webhooks have failed for 30 minutes, and clears once one is delivered', async () => {
    await relayEvents(ctx)
    await createWebhookWorker(ctx).runOnce()
    const failing = await ctx.db.selectFrom('webhook_deliveries').select(['id', 'status']).where('account_id', '=', shop.id).execute()
    expect(failing.map((d) => d.status)).toContain('retrying')
    expect((await evaluate()).webhook_failing).toEqual({ started: 0, cleared: 0 })
    // Its first failure half an hour ago.
    await sql`UPDATE webhook_deliveries SET attempts = jsonb_set(attempts, '{0,attempted_at}', to_jsonb((now() - interval '31 minutes')::text))
               WHERE account_id = ${shop.id} AND status = 'retrying'`.execute(ctx.db)
    expect((await evaluate()).webhook_failing).toEqual({ started: 1, cleared: 0 })
    expect((await openAlerts()).find((a) => a.kind === 'webhook_failing')).toMatchObject({
      subject: String(shop.id),
      message: expect.stringMatching(/^Webhooks of account \d+ \(Test Shop\) failing for 31 minutes: 1 delivery not delivered$/),
    })
    // The reseller's receiver is back: a delivery gets through.
    receiver.answerWith(() => ({ status: 200 }))
    await sql`UPDATE webhook_deliveries SET next_attempt_at = now() - interval '1 second' WHERE account_id = ${shop.id} AND status = 'retrying'`.execute(
      ctx.db,
    )
    await createWebhookWorker(ctx).runOnce()
    expect((await evaluate()).webhook_failing).toEqual({ started: 0, cleared: 1 })
  })
})
