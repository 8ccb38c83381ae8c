import type { AppContext } from '../src/context.js'
import type { OperatorRole } from '../src/db/schema.js'
import { newOperatorToken } from '../src/modules/team/index.js'

let operators = 0

/** An active operator of `role` straight in the database, with an `op_` token: the headers to call the admin API as them. */
export async function operatorWithToken(ctx: AppContext, role: OperatorRole, email = `op${++operators}-${process.pid}@example.com`) {
  const operator = await ctx.db
    .insertInto('operators')
    .values({ email, name: `Operator ${operators}`, role, status: 'active', updated_at: new Date() })
    .returning(['id', 'email'])
    .executeTakeFirstOrThrow()
  const { token, hash, prefix } = newOperatorToken()
  await ctx.db
    .insertInto('operator_tokens')
    .values({ operator_id: operator.id, name: 'test', token_hash: hash, token_prefix: prefix })
    .execute()
  return { ...operator, role, token, headers: { authorization: `Bearer ${token}` } }
}

/** The newest audit row's id (0 for none): a write appended rows when it grows, nothing did when it stays. */
export async function latestAuditId(ctx: AppContext): Promise<number> {
  const row = await ctx.db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst()
  return Number(row?.id ?? 0)
}
