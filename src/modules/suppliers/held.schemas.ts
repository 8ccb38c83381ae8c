import { Type } from '@sinclair/typebox'
import { Nullable, PageNumber, RowId, StringEnum, Timestamp } from '../../http/schemas.js'

export const HeldParam = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 64, description: 'the provider’s code' }),
  id: RowId(),
})

export const HeldQuery = Type.Object({
  status: Type.Optional(
    StringEnum(['pending', 'approved', 'rejected', 'superseded'], {
      description: 'pending: waits for a decision; superseded: a later list moved the price before anyone decided. All when absent',
    }),
  ),
  page: Type.Optional(PageNumber),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
})

export const HeldPrice = Type.Object({
  id: Type.Integer({ description: 'the held change’s id in the change log' }),
  code: Type.String({ description: 'the supplier product' }),
  name: Nullable(Type.String({ description: 'as last listed; null for a new product (never applied)' })),
  last_applied: Nullable(Type.String({ description: 'the price the product keeps; null for a new product' })),
  listed: Nullable(Type.String({ description: 'the price the list showed, not applied' })),
  reason: StringEnum(['invalid', 'jump'], {
    description: 'invalid: not a positive price within the money bounds; jump: moved more than SUPPLIER_PRICE_JUMP_PERCENT',
  }),
  status: StringEnum(['pending', 'approved', 'rejected', 'superseded']),
  at: Timestamp,
  decided_at: Nullable(Timestamp),
  sync_id: Type.Integer(),
})

export const HeldDecision = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  decision: StringEnum(['approved', 'rejected']),
  repriced: Type.Integer({ description: 'items whose cost or price the approved price moved' }),
})
