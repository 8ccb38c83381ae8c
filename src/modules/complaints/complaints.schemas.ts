import { Type } from '@sinclair/typebox'
import { COMPLAINT_REASONS, COMPLAINT_RESOLUTIONS, COMPLAINT_STATUSES } from '../../db/schema.js'
import { CursorQuery, OkCursorPage } from '../../http/paging.js'
import { Nullable, Ok, PageNumber, RowId, RowIdOrDigits, StringEnum, Timestamp } from '../../http/schemas.js'

// Resellers read order_item_id as a string from a transaction's items; either form is taken.
const OrderItemId = RowIdOrDigits({
  description: 'the line: `items[].order_item_id` of `GET /api/v1/trx/{ref}`, as a string or an integer',
})

const Message = Type.String({
  minLength: 1,
  maxLength: 2000,
  pattern: '\\S',
  description: 'what happened, 1–2000 characters (trimmed), not blank',
  examples: ['The code says it was already redeemed.'],
})

export const ComplaintReason = StringEnum(COMPLAINT_REASONS, {
  description: 'not_received, wrong_item, invalid_code or other',
})
export const ComplaintStatus = StringEnum(COMPLAINT_STATUSES, {
  description: 'open (waiting for the operator), answered (the operator replied) or closed (see resolution)',
})

export const OpenComplaintBody = Type.Object({ order_item_id: OrderItemId, reason: ComplaintReason, message: Message })
export const ComplaintMessageBody = Type.Object({ message: Message })

export const ComplaintMessage = Type.Object({
  id: Type.Integer(),
  author: StringEnum(['reseller', 'operator'] as const, { description: 'who wrote: you, or the store (an operator)' }),
  action: Type.String({ description: 'open, message, reply, resend, recheck, refund or reject' }),
  message: Type.String(),
  created_at: Timestamp,
})

const complaintFields = {
  id: Type.Integer(),
  ref_id: Type.String(),
  invoice: Type.String(),
  order_item_id: Type.String({ description: 'the line complained about (its id as a string)' }),
  reason: ComplaintReason,
  status: ComplaintStatus,
  resolution: Nullable(
    StringEnum(COMPLAINT_RESOLUTIONS, { description: 'once closed: refunded, resent, rejected or resolved; else null' }),
  ),
  refunded_amount: Type.Integer({ description: 'what a refund credited to the balance; 0 otherwise' }),
  created_at: Timestamp,
  updated_at: Timestamp,
  closed_at: Nullable(Timestamp),
}

export const ComplaintSummary = Type.Object(complaintFields)
export const Complaint = Type.Object({
  ...complaintFields,
  messages: Type.Array(ComplaintMessage, { description: 'the thread, oldest first' }),
})

export const OkComplaint = Ok(Complaint)
export const OkComplaints = Ok(Type.Array(Complaint))
export const ComplaintList = OkCursorPage(ComplaintSummary)

export const ComplaintListQuery = Type.Object({
  page: Type.Optional(PageNumber),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
  status: Type.Optional(ComplaintStatus),
  ...CursorQuery,
})

export const ComplaintIdParam = Type.Object({ id: RowId() })

// Longer than any ref_id is simply not found, as GET /v1/trx/{ref} answers it.
export const ComplaintRefParam = Type.Object({ ref: Type.String({ minLength: 1, maxLength: 2000 }) })
