import { Type, type TSchema } from '@sinclair/typebox'
import { COMPLAINT_REASONS, COMPLAINT_RESOLUTIONS, COMPLAINT_STATUSES } from '../../db/schema.js'
import { Nullable, Ok, OkPage, PageNumber, RowId, StringEnum, Timestamp } from '../../http/schemas.js'

// The operator API's complaint shapes (docs/design.md §14).

const PROCESSES = ['auto', 'manual', 'h2h', 'smm'] as const
const NullableWith = <T extends TSchema>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description })

export const OperatorComplaintSummary = Type.Object({
  id: Type.Integer(),
  account_id: Type.Integer(),
  account_name: Type.String(),
  order_id: Type.Integer(),
  ref_id: Type.String(),
  invoice: Type.String(),
  order_item_id: Type.String({ description: 'the line complained of (its id, a string, as resellers see it)' }),
  product_name: Type.String(),
  variant_name: Type.String(),
  order_process: StringEnum(PROCESSES),
  reason: StringEnum(COMPLAINT_REASONS),
  status: StringEnum(COMPLAINT_STATUSES),
  resolution: Nullable(StringEnum(COMPLAINT_RESOLUTIONS)),
  refunded_amount: Type.Integer(),
  age_minutes: Type.Integer({ description: 'since the complaint was opened' }),
  waiting_since: NullableWith(Timestamp, 'while `open`: the reseller message since the last operator step that waits'),
  due_at: NullableWith(Timestamp, 'waiting_since + COMPLAINT_SLA_HOURS; null when nobody waits for an operator'),
  overdue: Type.Boolean({ description: 'an `open` complaint past its due_at' }),
  created_at: Timestamp,
  updated_at: Timestamp,
  closed_at: Nullable(Timestamp),
})

const Message = Type.Object({
  id: Type.Integer(),
  author: StringEnum(['reseller', 'operator', 'system']),
  author_name: Type.String({ description: 'the API account, the dashboard user’s email, or the operator’s name' }),
  action: StringEnum(['open', 'message', 'reply', 'resend', 'recheck', 'refund', 'reject']),
  message: Type.String(),
  created_at: Timestamp,
})

const Upstream = Type.Object({
  id: Type.Integer(),
  provider: Type.String(),
  kind: StringEnum(['digiflazz', 'smm_panel']),
  upstream_ref: Type.String(),
  upstream_order_id: Nullable(Type.String()),
  status: StringEnum(['queued', 'sending', 'pending', 'completed', 'failed', 'review', 'void']),
  upstream_status: Nullable(Type.String()),
  sn: Nullable(Type.String()),
  message: Nullable(Type.String()),
})

export const OperatorComplaint = Type.Composite([
  OperatorComplaintSummary,
  Type.Object({
    order: Type.Object({ id: Type.Integer(), ref_id: Type.String(), invoice: Type.String(), status: Type.String() }),
    line: Type.Object({
      id: Type.Integer(),
      product_name: Type.String(),
      variant_name: Type.String(),
      order_process: StringEnum(PROCESSES),
      status: StringEnum(['pending', 'processing', 'delivered', 'sent', 'refunded', 'cancel_requested']),
      quantity: Type.Integer(),
      subtotal: Type.Integer(),
      refunded_amount: Type.Integer(),
      delivered_at: Nullable(Timestamp),
      upstream: NullableWith(Upstream, 'h2h and smm lines: the latest upstream request; else null'),
    }),
    messages: Type.Array(Message),
  }),
])

export const ComplaintListQuery = Type.Object({
  view: Type.Optional(
    StringEnum(['queue', 'all'], { default: 'queue', description: 'queue: not closed, oldest first; all: any status, newest first' }),
  ),
  status: Type.Optional(StringEnum(COMPLAINT_STATUSES)),
  reason: Type.Optional(StringEnum(COMPLAINT_REASONS)),
  account_id: Type.Optional(RowId()),
  page: Type.Optional(PageNumber),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
})

const Text = (description: string) => Type.String({ minLength: 1, maxLength: 2000, description })

export const ReplyBody = Type.Object({ message: Text('what the reseller reads') })
export const RejectBody = Type.Object({ reason: Text('why, as the reseller reads it') })
export const RefundBody = Type.Object({
  message: Type.Optional(Text('what the reseller reads; default "Refunded <amount>."')),
})
export const ResendBody = Type.Union([
  Type.Object({ mode: Type.Literal('auto') }, { description: 'auto lines: a license from the item’s stock replaces the line’s' }),
  Type.Object(
    {
      mode: Type.Literal('manual'),
      product_license: Type.String({ minLength: 1, maxLength: 10000, description: 'the replacement, stored encrypted' }),
      note: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
    },
    { description: 'any line: the replacement typed; an auto line’s licenses turn void' },
  ),
])

export const OneOperatorComplaint = Ok(OperatorComplaint)
export const OperatorComplaintPage = OkPage(OperatorComplaintSummary)
