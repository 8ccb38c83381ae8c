import type { Migration } from 'kysely'
import * as foundation from './20261122_0001_foundation.js'
import * as orders from './20261122_0002_orders.js'
import * as webhooks from './20261122_0003_webhooks.js'

// Append-only: a new migration gets a new timestamped file and a new line here.
export const migrations: Record<string, Migration> = {
  '20261122_0001_foundation': foundation,
  '20261122_0002_orders': orders,
  '20261122_0003_webhooks': webhooks,
}
