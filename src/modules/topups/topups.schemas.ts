import { Type } from '@sinclair/typebox'
import { CHANNEL_TYPES, TOPUP_STATUSES } from '../../db/schema.js'
import { IntegerOrDigits, Nullable, Ok, StringEnum, Timestamp } from '../../http/schemas.js'
import { MAX_MONEY } from '../ledger/index.js'

const ChannelCode = Type.String({ minLength: 1, maxLength: 32, description: 'a `code` from GET /api/v1/balance/channels' })

export const TopupBody = Type.Object({
  amount: IntegerOrDigits({
    minimum: 10_000,
    maximum: MAX_MONEY,
    description: 'Rupiah to add to the balance; at least 10000 and within the channel’s range',
  }),
  channel: ChannelCode,
  // As a purchase's ref_id (orders.schemas imports this file, so not imported from there).
  ref_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 191, description: 'your unique reference, shared with purchases; default: the invoice' }),
  ),
})

/** What a bank_transfer top-up adds (docs/design.md §7b): the code, and the account to transfer `total` to. */
const BankTransferFields = {
  unique_code: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 999,
      description: 'bank_transfer: added to the amount so the transfer names its top-up; credited',
    }),
  ),
  pay_to: Type.Optional(
    Type.Object(
      { bank: Type.String(), account_number: Type.String(), account_name: Type.String() },
      { description: 'bank_transfer: the account to transfer exactly `total` to' },
    ),
  ),
}

export const CreatedTopup = Ok(
  Type.Object({
    payment_url: Type.String({ description: 'where the payer pays' }),
    amount: Type.Integer({ description: 'what the balance gains once paid (bank_transfer: plus unique_code)' }),
    expires_at: Timestamp,
    reference: Type.String({ description: 'the gateway’s reference' }),
    invoice: Type.String(),
    ref_id: Type.String({ description: 'yours, or the invoice when none was sent' }),
    channel: Type.String(),
    fee: Type.Integer({ description: 'what the payer adds' }),
    total: Type.Integer({ description: 'amount + fee (+ unique_code on bank_transfer): what the payer pays' }),
    status: Type.Literal('pending'),
    created_at: Timestamp,
    ...BankTransferFields,
  }),
)

const ChannelType = StringEnum(CHANNEL_TYPES)

export const ChannelsQuery = Type.Object({
  amount: Type.Optional(
    Type.Integer({ minimum: 0, maximum: MAX_MONEY, description: '`fee` for this amount (default: each channel’s min_amount)' }),
  ),
})
export const ResellerChannel = Type.Object({
  code: Type.String(),
  name: Type.String(),
  type: Type.String(),
  fee: Type.Integer({ description: 'Rupiah the payer adds to `amount`: fee_flat + fee_percent % of `amount`, rounded up' }),
  fee_flat: Type.Integer({ description: 'Rupiah added to every top-up on this channel' }),
  fee_percent: Type.Number({ description: 'percent of the amount added on top of fee_flat' }),
  amount: Type.Integer({ description: 'the amount `fee` and `total` are for: `?amount=` when asked, else min_amount' }),
  total: Type.Integer({ description: 'what the payer pays for `amount`: amount + fee' }),
  min_amount: Type.Integer(),
  max_amount: Type.Integer(),
  status: StringEnum(['on', 'off']),
})
export const ChannelList = Ok(Type.Array(ResellerChannel))

const Money = Type.Integer({ minimum: 0, maximum: MAX_MONEY })
const ChannelFields = {
  name: Type.String({ minLength: 1, maxLength: 191 }),
  type: ChannelType,
  fee_flat: Type.Optional(Money),
  fee_percent: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'percent of the amount; kept to 3 decimals' })),
  min_amount: Type.Optional(Type.Integer({ minimum: 10_000, maximum: MAX_MONEY })),
  max_amount: Type.Optional(Type.Integer({ minimum: 10_000, maximum: MAX_MONEY })),
  active: Type.Optional(Type.Boolean()),
  // A bank_transfer channel's account (docs/design.md §7b): required for that type, unused by the others.
  bank: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'bank_transfer: the bank, as payers know it (BCA, BNI, Mandiri…)' }),
  ),
  account_number: Type.Optional(
    Type.String({ pattern: '^[0-9]{4,30}$', description: 'bank_transfer: the account’s digits, as Moota reports them' }),
  ),
  account_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'bank_transfer: the account holder’s name' })),
}
export const ChannelBody = Type.Object({ code: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$' }), ...ChannelFields })
export const ChannelChangesBody = Type.Partial(Type.Object(ChannelFields))
export const OperatorChannel = Type.Object({
  code: Type.String(),
  name: Type.String(),
  type: Type.String(),
  fee_flat: Type.Integer(),
  fee_percent: Type.Number(),
  min_amount: Type.Integer(),
  max_amount: Type.Integer(),
  active: Type.Boolean(),
  bank: Nullable(Type.String()),
  account_number: Nullable(Type.String()),
  account_name: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export const ChannelCodeParam = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) })
export const ReferenceParam = Type.Object({ reference: Type.String({ minLength: 1, maxLength: 200 }) })

export const OperatorTopup = Type.Object({
  id: Type.Integer(),
  account_id: Type.Integer(),
  ref_id: Type.String(),
  invoice: Type.String(),
  reference: Type.String(),
  gateway: Type.String(),
  channel: Type.String(),
  amount: Type.Integer(),
  fee: Type.Integer(),
  total: Type.Integer(),
  status: StringEnum(TOPUP_STATUSES, { description: '`review`: the gateway reported another paid total; an operator resolves it' }),
  gateway_status: Nullable(Type.String()),
  payment_url: Type.String(),
  expires_at: Timestamp,
  paid_at: Nullable(Timestamp),
  paid_total: Nullable(Type.Integer({ description: 'what the gateway’s PAID reported as paid (amount + fee); null if none usable' })),
  review_reason: Nullable(Type.String({ description: 'why the top-up went to review' })),
  credited_amount: Nullable(Type.Integer({ description: 'what an operator credited on resolving it (0: nothing)' })),
  resolution_reason: Nullable(Type.String()),
  resolved_at: Nullable(Timestamp),
  unique_code: Nullable(Type.Integer({ description: 'bank_transfer: the code in `total`' })),
  pay_bank: Nullable(Type.String()),
  pay_account_number: Nullable(Type.String()),
  pay_account_name: Nullable(Type.String()),
  created_at: Timestamp,
})
export const TopupStatusFilter = StringEnum(TOPUP_STATUSES)
export const ResolveTopupBody = Type.Object({
  credit_amount: Type.Integer({
    minimum: 0,
    maximum: MAX_MONEY,
    description: 'Rupiah to credit: the requested `amount`, another amount, or 0 for nothing (the top-up turns failed)',
  }),
  reason: Type.String({ minLength: 1, maxLength: 500, description: 'why; kept with the top-up and in the ledger entry' }),
})
export const ResolvedTopup = Ok(OperatorTopup)
export const PaidTopup = Ok(
  Type.Composite([OperatorTopup, Type.Object({ credited: Type.Boolean({ description: 'false when it had already been paid' }) })]),
)

/** What GET /api/v1/trx/{ref} adds for a top-up (`type: "topup"`); a purchase has none of these. */
export const TopupExtras = {
  type: Type.Optional(Type.Literal('topup')),
  total: Type.Optional(Type.Integer()),
  payment_url: Type.Optional(Type.String()),
  expires_at: Type.Optional(Timestamp),
  paid_at: Type.Optional(Nullable(Timestamp)),
}
