import { Type } from '@sinclair/typebox'
import { IntegerOrDigits, Ok, RowIdOrDigits, Timestamp } from '../../http/schemas.js'

export const LockBody = Type.Object({
  item_id: RowIdOrDigits(),
  quantity: IntegerOrDigits({ minimum: 1, maximum: 1_000_000, description: "at least the item's min_order" }),
  lock_duration: Type.Optional(IntegerOrDigits({ minimum: 60, maximum: 600, default: 600, description: 'seconds' })),
})

const Lock = Type.Object({
  lock_token: Type.String(),
  item_id: Type.Integer(),
  quantity: Type.Integer(),
  locked_at: Timestamp,
  expires_at: Timestamp,
})

export const CreatedLock = Type.Object({ success: Type.Literal(true), data: Lock })

export const ActiveLocks = Ok(
  Type.Array(Type.Composite([Lock, Type.Object({ status: Type.Literal('active'), remaining_seconds: Type.Integer() })])),
)

export const TokenParam = Type.Object({ lock_token: Type.String({ minLength: 1, maxLength: 2000 }) })

export const ReleasedLock = Ok(Type.Object({ lock_token: Type.String(), status: Type.Literal('released'), released_at: Timestamp }))
