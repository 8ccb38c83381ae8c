import type { ColumnType, Generated } from 'kysely'
import type { Id, Timestamp } from './columns.js'

// The tables of payment channels and top-ups.
export type ChannelType = 'qris' | 'va' | 'ewallet' | 'retail'

export interface PaymentChannelsTable {
  code: string
  name: string
  type: ChannelType
  fee_flat: Generated<number>
  /** numeric: a string from either driver until converted */
  fee_percent: ColumnType<number | string, number | undefined, number>
  min_amount: Generated<number>
  max_amount: Generated<number>
  active: Generated<boolean>
  created_at: Generated<Date>
  updated_at: Timestamp
}

/** `review`: the gateway reported another paid total; an operator credits it (paid) or not (failed). */
export const TOPUP_STATUSES = ['pending', 'paid', 'expired', 'failed', 'review'] as const
export type TopupStatus = (typeof TOPUP_STATUSES)[number]
export type PaymentGateway = 'simulator' | 'tripay'

export interface TopupsTable {
  id: Id
  account_id: number
  ref_id: string
  invoice: string
  channel: string
  gateway: PaymentGateway
  reference: string
  amount: number
  fee: number
  total: number
  status: Generated<TopupStatus>
  gateway_status: string | null
  payment_url: string
  expires_at: Timestamp
  paid_at: Date | null
  /** The paid total the gateway's PAID reported (NULL: none yet, or none usable); `review` when it is not `total`. */
  paid_total: number | null
  review_reason: string | null
  /** What the operator credited on resolving; the ledger entry holds the same. */
  credited_amount: number | null
  resolution_reason: string | null
  resolved_at: Date | null
  created_at: Generated<Date>
  updated_at: Timestamp
}
