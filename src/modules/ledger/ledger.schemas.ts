import { Type, type Static } from '@sinclair/typebox'
import { CursorQuery, OkCursorPage } from '../../http/paging.js'
import { Nullable, Ok, Paging, StringEnum, Timestamp } from '../../http/schemas.js'
import { BREAKS_LISTED } from './ledger-audit.queries.js'

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

export const AUDIT_CHECKS = [
  'balance_equals_ledger',
  'ledger_chain',
  'orders_debited_once',
  'orders_debited_in_full',
  'refunds_equal_lines_refunded',
  'topups_credited_once',
  'order_counter',
  'ledger_counter',
] as const

export const LedgerAudit = Ok(
  Type.Object({
    account_id: Type.Integer(),
    consistent: Type.Boolean({ description: 'every check holds' }),
    balance: Type.Integer(),
    ledger_balance: Type.Integer({ description: 'credits less debits over the whole ledger' }),
    entries: Type.Integer(),
    checks: Type.Array(
      Type.Object({
        check: StringEnum(AUDIT_CHECKS),
        ok: Type.Boolean(),
        expected: Type.Integer(),
        actual: Type.Integer(),
        description: Type.String(),
      }),
    ),
    breaks: Type.Array(Type.Object({ entry_id: Type.Integer(), balance_before: Type.Integer(), expected: Type.Integer() }), {
      description: `the first ${BREAKS_LISTED} entries whose balance_before is not the balance_after of the entry before`,
    }),
  }),
)
export type LedgerAudit = Static<typeof LedgerAudit>['data']
