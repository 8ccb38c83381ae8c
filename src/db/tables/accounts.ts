import type { Generated } from 'kysely'
import type { Id, Timestamp } from './columns.js'

// The tables of accounts, API keys and the ledger.
export interface AppMetaTable {
  key: string
  value: string
}

export interface AccountsTable {
  id: Id
  name: string
  email: string | null
  status: Generated<'active' | 'suspended'>
  balance: Generated<number>
  max_active_locks: number | null
  ip_allowlist: Generated<string[]>
  /** Kept by post_ledger_entry and purchase(): the totals of the account's unfiltered lists. */
  orders_count: Generated<number>
  ledger_count: Generated<number>
  /** The account's price level (docs/design.md §5d); new accounts get the default. */
  price_level_id: Generated<number>
  /** When it last moved to another level: a catalog delta from before it answers in full. */
  price_level_since: Date | null
  created_at: Generated<Date>
  updated_at: Timestamp
}

/** Status changes of an account's orders (count_order_settles): with orders_count, its order list's version; none yet: 0. */
export interface AccountOrderSettlesTable {
  account_id: number
  settles: number
}

export interface ApiKeysTable {
  id: Id
  account_id: number
  key_hash: string
  key_prefix: string
  created_at: Generated<Date>
  revoked_at: Date | null
}

export type LedgerDirection = 'credit' | 'debit'
export type LedgerType = 'topup' | 'purchase' | 'refund' | 'adjustment'

export interface LedgerEntriesTable {
  id: Id
  account_id: number
  direction: LedgerDirection
  type: LedgerType
  amount: number
  balance_before: number
  balance_after: number
  description: string
  invoice: string | null
  reference: string | null
  order_id: number | null
  order_line_id: number | null
  topup_id: number | null
  created_at: Generated<Date>
}
