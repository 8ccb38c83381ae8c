import type { Generated } from 'kysely'
import type { Id, Timestamp } from './columns.js'

// The tables of complaints and their threads (docs/design.md §14).
export const COMPLAINT_REASONS = ['not_received', 'wrong_item', 'invalid_code', 'other'] as const
export type ComplaintReason = (typeof COMPLAINT_REASONS)[number]
export const COMPLAINT_STATUSES = ['open', 'answered', 'closed'] as const
export type ComplaintStatus = (typeof COMPLAINT_STATUSES)[number]
export const COMPLAINT_RESOLUTIONS = ['refunded', 'resent', 'rejected', 'resolved'] as const
export type ComplaintResolution = (typeof COMPLAINT_RESOLUTIONS)[number]
export type ComplaintAuthor = 'reseller' | 'operator' | 'system'
export type ComplaintAction = 'open' | 'message' | 'reply' | 'resend' | 'recheck' | 'refund' | 'reject'

export interface ComplaintsTable {
  id: Id
  account_id: number
  order_id: number
  order_line_id: number
  reason: ComplaintReason
  status: Generated<ComplaintStatus>
  resolution: ComplaintResolution | null
  refunded_amount: Generated<number>
  created_at: Generated<Date>
  updated_at: Timestamp
  closed_at: Date | null
}

export interface ComplaintMessagesTable {
  id: Id
  complaint_id: number
  author: ComplaintAuthor
  author_name: Generated<string>
  action: ComplaintAction
  body: string
  created_at: Generated<Date>
}
