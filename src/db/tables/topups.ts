import type { ColumnType, Generated } from 'kysely'
import type { Id, Timestamp } from './columns.js'

// The tables of payment channels and top-ups.
export const CHANNEL_TYPES = ['qris', 'va', 'ewallet', 'retail', 'bank_transfer'] as const
export type ChannelType = (typeof CHANNEL_TYPES)[number]

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
  /** A bank_transfer channel's account (docs/design.md §7b); null on the others. */
  bank: string | null
  account_number: string | null
  account_name: string | null
  created_at: Generated<Date>
  updated_at: Timestamp
}

/** `review`: the gateway reported another paid total; an operator credits it (paid) or not (failed). */
export const TOPUP_STATUSES = ['pending', 'paid', 'expired', 'failed', 'review'] as const
export type TopupStatus = (typeof TOPUP_STATUSES)[number]
export type PaymentGateway = 'simulator' | 'tripay' | 'bank_transfer'

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
  /** A bank transfer's code (1–999), part of `total` and credited; null on gateway top-ups. */
  unique_code: Generated<number | null>
  pay_bank: Generated<string | null>
  pay_account_number: Generated<string | null>
  pay_account_name: Generated<string | null>
  created_at: Generated<Date>
  updated_at: Timestamp
}

export interface TransferTotalsTable {
  account_number: string
  total: number
  topup_id: number
  reserved_until: Timestamp
}

export const MUTATION_STATUSES = ['unmatched', 'matched', 'duplicate', 'ignored'] as const
export type MutationStatus = (typeof MUTATION_STATUSES)[number]
export type MatchedBy = 'push' | 'statement' | 'operator'

/** A bank account's credit or debit as Moota pushed it or a statement listed it (docs/design.md §7b). */
export interface BankMutationsTable {
  id: Id
  mutation_id: string
  source: 'moota' | 'statement'
  bank_id: string | null
  account_number: string
  amount: number
  type: 'CR' | 'DB'
  description: Generated<string>
  date: string | null
  status: Generated<MutationStatus>
  topup_id: number | null
  matched_by: MatchedBy | null
  matched_at: Date | null
  credited_amount: number | null
  note: string | null
  raw: unknown
  created_at: Generated<Date>
  updated_at: Timestamp
}
