import { Type } from '@sinclair/typebox'
import { MUTATION_STATUSES } from '../../db/schema.js'
import { Nullable, Ok, OkPage, PageNumber, StringEnum, Timestamp } from '../../http/schemas.js'

export const BankMutationView = Type.Object({
  id: Type.Integer(),
  mutation_id: Type.String({ description: 'Moota’s id, the statement’s, or `stmt-…` derived from a statement row' }),
  source: StringEnum(['moota', 'statement']),
  bank_id: Nullable(Type.String()),
  account_number: Type.String(),
  amount: Type.Integer(),
  type: StringEnum(['CR', 'DB']),
  description: Type.String(),
  date: Nullable(Type.String({ description: 'as the bank or Moota wrote it' })),
  status: StringEnum(MUTATION_STATUSES),
  topup_id: Nullable(Type.Integer()),
  topup_reference: Nullable(Type.String()),
  topup_account_id: Nullable(Type.Integer()),
  matched_by: Nullable(StringEnum(['push', 'statement', 'operator'])),
  matched_at: Nullable(Timestamp),
  credited_amount: Nullable(Type.Integer()),
  note: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
})

export const BankMutationsQuery = Type.Object({
  page: Type.Optional(PageNumber),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  status: Type.Optional(StringEnum(MUTATION_STATUSES)),
  type: Type.Optional(StringEnum(['CR', 'DB'])),
  account_number: Type.Optional(Type.String({ pattern: '^[0-9]{1,30}$' })),
})
export const BankMutationPage = OkPage(BankMutationView)
export const OneBankMutation = Ok(BankMutationView)
export const MatchBody = Type.Object({
  topup_reference: Type.String({ minLength: 1, maxLength: 200, description: 'the bank-transfer top-up’s `reference`' }),
  note: Type.Optional(Type.String({ maxLength: 500, description: 'why; kept with the mutation' })),
})
export const IgnoreBody = Type.Object({ note: Type.Optional(Type.String({ maxLength: 500 })) })
export const ImportQuery = Type.Object({
  channel: Type.String({ minLength: 1, maxLength: 32, description: 'the bank_transfer channel whose account the statement is of' }),
})
export const ImportCounts = Ok(
  Type.Object({
    rows: Type.Integer(),
    matched: Type.Integer(),
    unmatched: Type.Integer(),
    duplicate: Type.Integer(),
    repeated: Type.Integer({ description: 'rows stored before (the same statement again): nothing changed' }),
  }),
)
/** The statement: a text/csv body is taken as `{ csv }`, so JSON clients send the same text in a field. */
export const StatementBody = Type.Object({
  csv: Type.String({
    minLength: 1,
    maxLength: 10 * 1024 * 1024,
    description: 'the CSV: header `date,description,amount,type[,mutation_id]`, then one row per mutation',
  }),
})
