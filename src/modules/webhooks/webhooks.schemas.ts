import { Type, type Static } from '@sinclair/typebox'
import { CursorQuery, OkCursorPage } from '../../http/paging.js'
import { Nullable, Ok, PageNumber, RowId, StringEnum, Timestamp } from '../../http/schemas.js'

export const WebhookSettings = Type.Object({
  callback_url: Nullable(Type.String()),
  webhook_enabled: Type.Boolean(),
  has_secret: Type.Boolean(),
  secret_created_at: Nullable(Timestamp),
})
export type WebhookSettings = Static<typeof WebhookSettings>

export const SettingsBody = Type.Object({
  // Clients often send an absent URL as null or "": both clear it.
  callback_url: Type.Optional(
    Nullable(Type.String({ maxLength: 2048, description: 'https URL (http only for localhost outside production); null or "" clears it' })),
  ),
  webhook_enabled: Type.Optional(Type.Boolean({ description: 'enabling needs a callback_url and a generated secret' })),
})
export type SettingsBody = Static<typeof SettingsBody>

export const GeneratedSecret = Type.Object({
  status: Type.Boolean(),
  message: Type.String(),
  data: Type.Object({ webhook_secret: Type.String({ description: 'whsec_…, shown only here' }) }),
})

export const TestOutcome = Ok(
  Type.Object({
    delivered: Type.Boolean(),
    status_code: Nullable(Type.Integer()),
    duration_ms: Type.Integer(),
    error: Nullable(Type.String()),
    delivery_id: Type.Integer(),
    webhook_id: Type.String(),
  }),
)

export const DeliveryStatus = StringEnum(['pending', 'retrying', 'delivered', 'failed'])

export const Attempt = Type.Object({
  attempted_at: Timestamp,
  status_code: Nullable(Type.Integer()),
  duration_ms: Type.Integer(),
  error: Nullable(Type.String()),
})

export const Delivery = Type.Object({
  id: Type.Integer(),
  event: Type.String(),
  webhook_id: Type.String({ description: 'the webhook-id header and data.event_id, the same on every attempt' }),
  status: DeliveryStatus,
  order_id: Nullable(Type.Integer()),
  ref_id: Nullable(Type.String()),
  invoice: Nullable(Type.String()),
  attempt_count: Type.Integer(),
  next_attempt_at: Nullable(Timestamp),
  created_at: Timestamp,
  delivered_at: Nullable(Timestamp),
  attempts: Type.Array(Attempt, { description: 'oldest first' }),
})
export type Delivery = Static<typeof Delivery>

export const DeliveryList = OkCursorPage(Delivery)
export const OneDelivery = Ok(Delivery)

export const DeliveryQuery = Type.Object({
  page: Type.Optional(PageNumber),
  ...CursorQuery,
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
  status: Type.Optional(DeliveryStatus),
})
export type DeliveryQuery = Static<typeof DeliveryQuery>

export const DeliveryParam = Type.Object({ id: RowId() })
export const AccountDeliveryParams = Type.Object({ id: RowId(), delivery: RowId() })

export const WebhookDocs = Ok(Type.Record(Type.String(), Type.Unknown()))
