import { operations } from '../../http/operation.js'

const row = (key: string, label: string, f: [number, number, number, number, number]) => {
  const [orders, lines, revenue, cost, unknown] = f
  const margin = revenue - cost
  return {
    key,
    label,
    orders,
    lines,
    revenue,
    cost,
    margin,
    margin_percent: Math.round((margin / revenue) * 10_000) / 100,
    unknown_cost_lines: unknown,
  }
}

/** OpenAPI metadata of the report routes (each carried by its route’s schema). */
export const REPORT_DOCS = operations({
  adminMarginReport: {
    description: [
      'What the lines of orders sold on the days `from` to `to` (inclusive, in `LEADERBOARD_TZ`, default Asia/Jakarta; at most 366 days; by default the last 30 days up to today) earned over what they cost us (docs/design.md §11b), per `group` and in total.',
      '',
      '- **Counted:** the lines of orders in status `paid`, `completed` or `canceled`, by the order’s `created_at`.',
      '- **revenue** = the line’s `subtotal` − its `refunded_amount` (a refunded line earns 0).',
      '- **cost**, for an `h2h` or `smm` line: the sum of its upstream requests’ costs at the source each went to — a completed request its cost (an smm Partial: cost × (quantity − remains) / quantity, rounded), a request still open its planned cost, a failed one 0. Any other line: the cost recorded when it was bought × (subtotal − refunded) / subtotal, rounded.',
      '- A line whose cost is not known (bought before costs were recorded, an item without a cost, an open request without one) counts in `unknown_cost_lines` and adds 0 to `cost`, so its margin reads as its whole revenue.',
      '- **margin** = revenue − cost; **margin_percent** = margin / revenue × 100 to two decimals, null without revenue.',
      '- **group:** `item` (the line’s item), `provider` (an upstream line under the source that served it: its last completed request’s provider, else its last open one’s; `stock` for `auto` lines, `manual` for manual ones), `reseller` (the ordering account), `day` (the order’s day). `orders` counts each order once per row, and once in `totals`.',
      '- Rows: days in order; other groups by margin, highest first.',
    ].join('\n'),
    returns: 'The report: a row per group and the totals',
    codes: ['VALIDATION_ERROR'],
    response: {
      message: 'OK',
      data: {
        from: '2026-11-01',
        to: '2026-11-30',
        time_zone: 'Asia/Jakarta',
        group: 'provider',
        rows: [row('dgf', 'dgf', [412, 430, 8_912_000, 8_401_500, 0]), row('stock', 'Stock (auto)', [96, 101, 3_120_000, 2_650_000, 3])],
        totals: {
          orders: 500,
          lines: 531,
          revenue: 12_032_000,
          cost: 11_051_500,
          margin: 980_500,
          margin_percent: 8.15,
          unknown_cost_lines: 3,
        },
      },
    },
    errorExamples: {
      VALIDATION_ERROR: { message: 'VALIDATION_ERROR', errors: { from: ['must not be after `to`'] } },
    },
  },
})
