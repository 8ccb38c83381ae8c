import fs from 'node:fs'
import { dependencyOrder } from './sql-graph.js'

/** A repeatable SQL file: its name (the path under src/) is what the database records its hash under. */
export type Repeatable = { name: string; url: URL }

const file = (path: string): Repeatable => ({ name: path, url: new URL(`../${path}`, import.meta.url) })

/**
 * The database functions, each module's in its own file of CREATE OR REPLACE statements, re-applied
 * by migrate.ts whenever a file's text changes. Applied in dependency order, derived from the
 * functions each file creates and calls (sql-graph.ts): a file comes after every file whose
 * functions it calls, else in the order listed here. A changed signature or return type needs a
 * versioned migration that drops the old function first (CREATE OR REPLACE cannot change them).
 */
export const sqlFiles: readonly Repeatable[] = [
  file('db/functions/advisory-locks.sql'),
  file('db/functions/app-errors.sql'),
  file('db/functions/money.sql'),
  file('modules/catalog/stock.sql'),
  file('modules/catalog/catalog-clock.sql'),
  file('modules/catalog/sources.sql'),
  file('modules/catalog/sellable.sql'),
  file('modules/catalog/level-prices.sql'),
  file('modules/price-levels/price-levels.sql'),
  file('modules/ledger/ledger.sql'),
  file('modules/locks/locks.sql'),
  file('modules/leaderboard/leaderboard.sql'),
  file('modules/bills/bills.sql'),
  file('modules/orders/cart-line.sql'),
  file('modules/fulfilment/dispatch-states.sql'),
  file('modules/fulfilment/dispatch-plan.sql'),
  file('modules/orders/settlement.sql'),
  file('modules/fulfilment/claims.sql'),
  file('modules/checkout/purchase-line.sql'),
  file('modules/checkout/purchase.sql'),
  file('modules/checkout/settlement.sql'),
  file('modules/webhooks/webhooks.sql'),
  file('modules/complaints/complaints.sql'),
  file('modules/audit/audit.sql'),
]

const byName = new Map(sqlFiles.map((f) => [f.name, f]))
export const repeatables: readonly Repeatable[] = dependencyOrder(
  sqlFiles.map((f) => ({ name: f.name, text: fs.readFileSync(f.url, 'utf8') })),
).map((name) => byName.get(name)!)
