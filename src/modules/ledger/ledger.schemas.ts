import { Type, type Static } from '@sinclair/typebox'
import { CursorQuery, OkCursorPage } from '../../http/paging.js'
import { Nullable, Ok, Paging, StringEnum, Timestamp } from '../../http/schemas.js'

export const Balance = Ok(Type.Object({ balance: Type.Integer() }))

export const MutationsQuery = Type.Object({
  ...Paging,
  ...CursorQuery,
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  direction: Type.Optional(StringEnum(['credit', 'debit'])),
  type: Type.Optional(StringEnum(['topup', 'purchase', 'refund', 'adjustment'])),
})
export type MutationsQuery = Static<typeof MutationsQuery>

export const Mutation = Type.Object({
  id: Type.Integer(),
  invoice: Nullable(Type.String()),
  direction: Type.String(),
  type: Type.String(),
  amount: Type.Integer({ description: 'always positive; `direction` says which way' }),
  balance_before: Type.Integer(),
  balance_after: Type.Integer(),
  description: Type.String(),
  created_at: Timestamp,
})

export const MutationPage = OkCursorPage(Mutation)
