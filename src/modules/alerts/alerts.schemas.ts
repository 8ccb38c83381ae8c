import { Type } from '@sinclair/typebox'
import { ALERT_KINDS } from '../../db/schema.js'
import { CursorQuery, OkCursorPage } from '../../http/paging.js'
import { Nullable, Ok, PageNumber, StringEnum, Timestamp } from '../../http/schemas.js'

// The operator API's alert shapes (docs/design.md §11e): the alerts kept, and the channels they go to.

const CHANNELS = ['email', 'telegram', 'webhook'] as const

export const AlertListQuery = Type.Object({
  open: Type.Optional(Type.Boolean({ description: 'true: only alerts not cleared yet; false: only cleared ones' })),
  kind: Type.Optional(StringEnum(ALERT_KINDS)),
  page: Type.Optional(PageNumber),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  ...CursorQuery,
})

const AlertDelivery = Type.Object({
  event: StringEnum(['started', 'cleared']),
  channel: StringEnum(CHANNELS),
  status: StringEnum(['pending', 'retrying', 'delivered', 'failed']),
  failures: Type.Integer({ minimum: 0 }),
  delivered_at: Nullable(Timestamp),
})

export const Alert = Type.Object({
  id: Type.Integer(),
  kind: StringEnum(ALERT_KINDS),
  subject: Type.String({ description: 'a provider’s code, an account’s id, or "" for the store as a whole' }),
  message: Type.String(),
  details: Type.Record(Type.String(), Type.Unknown()),
  open: Type.Boolean({ description: 'not cleared yet' }),
  started_at: Timestamp,
  cleared_at: Nullable(Timestamp),
  deliveries: Type.Array(AlertDelivery, { description: 'one per (event, channel) set when the alert changed' }),
})
export const AlertPage = OkCursorPage(Alert)

const EmailChannel = Type.Object({
  to: Type.String({
    minLength: 3,
    maxLength: 500,
    description: 'one address, or several separated by commas',
  }),
})
const TelegramChannel = Type.Object({
  chat_id: Type.String({
    minLength: 1,
    maxLength: 40,
    description: 'a chat’s numeric id (groups are negative, e.g. -1001234567890) or a channel’s @username',
  }),
})
const WebhookChannelBody = Type.Object({
  url: Type.String({ minLength: 8, maxLength: 2000, description: 'https (http only for localhost outside production)' }),
  rotate_secret: Type.Optional(
    Type.Boolean({ description: 'true: a new signing secret even though the URL stays (the old one stops at once)' }),
  ),
})

export const ChannelsBody = Type.Object({
  email: Type.Optional(Nullable(EmailChannel)),
  telegram: Type.Optional(Nullable(TelegramChannel)),
  webhook: Type.Optional(Nullable(WebhookChannelBody)),
})

const WebhookChannel = Type.Object({
  url: Type.String(),
  has_secret: Type.Boolean(),
})
const Channels = Type.Object({
  email: Nullable(EmailChannel),
  telegram: Nullable(TelegramChannel),
  webhook: Nullable(WebhookChannel),
})
// The answer to a PUT: the webhook's signing secret appears once, when this PUT generated it.
const SavedChannels = Type.Object({
  email: Nullable(EmailChannel),
  telegram: Nullable(TelegramChannel),
  webhook: Nullable(
    Type.Composite([
      WebhookChannel,
      Type.Object({
        secret: Type.Optional(Type.String({ description: 'whsec_…: shown in this answer only, when this PUT generated it' })),
      }),
    ]),
  ),
})
export const OneChannels = Ok(Channels)
export const OneSavedChannels = Ok(SavedChannels)
