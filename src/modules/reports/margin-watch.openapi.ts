import { operations } from '../../http/operation.js'

/** OpenAPI metadata of Margin watch (carried by its route’s schema). */
export const MARGIN_WATCH_DOCS = operations({
  adminMarginWatch: {
    description: [
      'What slipped past the floor (docs/design.md §11c: a price must cover cost + `min_margin`) on the days `from` to `to` (inclusive, in `LEADERBOARD_TZ`; at most 366 days; by default the last 30 days up to today), and what the floor keeps from selling now. Each section lists at most 500 rows, newest (or furthest below) first; `total` counts them all.',
      '',
      '- **lines:** lines of `paid`, `completed` or `canceled` orders made in the period whose revenue (subtotal − refunded_amount) is below cost + floor margin. Cost as `GET /reports/margin` counts it: an upstream line the sum of its requests’ costs (a failed or voided request 0, an smm Partial what was delivered), any other line its recorded cost scaled to what was not refunded; a line of unknown cost is not judged. The floor margin is the item’s `min_margin` (else the store’s) × quantity, scaled as revenue is. `loss` = cost − revenue; `short_of_floor` = cost + floor margin − revenue.',
      '- **cause** of a line, the first that applies: `failover` (one of its requests replaced a failed one, at a dearer source), `allow_loss` (the item allows a loss), `price_locked` (the item’s price was set by hand), else `cost_rise` (the cost charged or recorded came above what the floor allowed: a supplier charged more than it listed). The item’s flags are read as they are now.',
      '- **bills:** bill inquiries the floor refused in the period (cause `bill`): the supplier’s price + floor margin was above what the reseller would pay. They were answered 503 and cannot be paid.',
      '- **items:** active items that cannot sell now because of the floor alone, one row per price `level` (its `price` there): a source is listed and outside its cut-off, but none of those keeps the floor at that price. `cheapest_cost` is the lowest of their prices. Raise the price or the level’s rule, lower `min_margin`, or allow a loss to sell it again.',
    ].join('\n'),
    returns: 'The three sections',
    codes: ['VALIDATION_ERROR'],
    response: {
      message: 'OK',
      data: {
        from: '2026-11-01',
        to: '2026-11-30',
        time_zone: 'Asia/Jakarta',
        lines: {
          total: 1,
          rows: [
            {
              order_id: 9120,
              invoice: 'INV20261114AB12CD34',
              ref_id: 'shop-4471',
              reseller_id: 12,
              reseller_name: 'Toko Makmur',
              item_id: 301,
              item_name: 'Mobile Legends — 86 Diamonds',
              quantity: 1,
              revenue: 20_000,
              cost: 20_400,
              floor_margin: 100,
              loss: 400,
              short_of_floor: 500,
              cause: 'failover',
              created_at: '2026-11-14T03:12:45.120Z',
            },
          ],
        },
        bills: {
          total: 1,
          rows: [
            {
              inquiry_id: 318,
              reseller_id: 12,
              reseller_name: 'Toko Makmur',
              item_id: 40,
              item_name: 'PLN Pascabayar — Tagihan',
              customer_id: '530000000008',
              customer_name: 'PELANGGAN 0008',
              amount: 102_500,
              supplier_price: 110_000,
              cause: 'bill',
              created_at: '2026-11-20T09:01:02.000Z',
            },
          ],
        },
        items: {
          total: 1,
          rows: [
            {
              item_id: 302,
              item_name: 'Free Fire — 140 Diamonds',
              sku: 'ff140',
              level: 'reseller',
              price: 18_500,
              cheapest_cost: 18_900,
              floor_margin: 100,
              price_locked: true,
            },
          ],
        },
      },
    },
    errorExamples: {
      VALIDATION_ERROR: { message: 'VALIDATION_ERROR', errors: { to: ['the range covers at most 366 days'] } },
    },
  },
})
