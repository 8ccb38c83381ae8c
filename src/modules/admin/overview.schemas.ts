import { Type } from '@sinclair/typebox'

const Sales = Type.Object({ count: Type.Integer(), amount: Type.Integer({ description: 'Rupiah' }) })

export const Overview = Type.Object({
  time_zone: Type.String({ description: 'LEADERBOARD_TZ: where a day and a month start' }),
  sales_today: Sales,
  sales_month: Sales,
  balances_held: Type.Integer({ description: 'the sum of every reseller balance' }),
  queues: Type.Object({
    manual_lines: Type.Integer({ description: 'manual lines waiting to be sent' }),
    upstream_pending: Type.Integer({ description: 'upstream requests queued, sending or pending at the provider' }),
    upstream_review: Type.Integer({ description: 'upstream requests waiting for an operator (dispatches in review)' }),
    webhooks_failing: Type.Integer({ description: 'webhook deliveries failing, over every account: failed (gave up) or retrying' }),
    topups_pending: Type.Integer({ description: 'top-ups waiting for payment, not expired' }),
    topups_review: Type.Integer({ description: 'top-ups waiting for an operator: the gateway reported another paid total' }),
    low_stock: Type.Integer({ description: 'active items with fewer than 10 units for sale' }),
  }),
  webhooks_failing: Type.Array(Type.Object({ account_id: Type.Integer(), name: Type.String(), failing: Type.Integer() }), {
    description: 'the 50 accounts with the most failing deliveries (failed or retrying), most first',
  }),
  low_stock: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), product_name: Type.String(), available: Type.Integer() })),
})
