import type { AppContext } from '../../context.js'
import { retrying } from '../../db/database.js'
import { AppError, type ErrorCode } from '../../errors.js'
import { findOrderSummary } from './orders.queries.js'
import type { OrderSummary, PurchaseBody } from './orders.schemas.js'
import { newInvoice } from './invoice.js'

const PURCHASE = 'SELECT * FROM purchase($1, $2, $3, $4::bigint[], $5::integer[], $6::text[], $7, $8::text[])'
type PurchaseOutcome = { order_id: number; created_at: Date; amount: number; refused: string | null }
type DbError = { code?: string; message?: string; detail?: string; hint?: string; constraint?: string }

/** A refusal raised by purchase() (SQLSTATE RS422) as the AppError it stands for. */
export function appErrorFromDatabase(error: DbError): AppError | undefined {
  if (error.code !== 'RS422') return undefined
  const code = error.message as ErrorCode
  if (code === 'VALIDATION_ERROR' && error.detail) return new AppError(code, { fieldErrors: { [error.detail]: [error.hint || 'is invalid'] } })
  return new AppError(code)
}

/**
 * POST /v1/trx: one call of the purchase() database function, which claims the ref_id, checks,
 * reserves, debits, fulfils auto lines and writes the outbox events in one transaction.
 */
export async function createPurchase(ctx: AppContext, accountId: number, body: PurchaseBody): Promise<OrderSummary> {
  const items = body.carts.map((c) => c.item_id)
  const quantities = body.carts.map((c) => c.quantity)
  const notes = body.carts.map((c) => c.note ?? null)
  const attempt = async () => {
    const invoice = newInvoice('INV')
    const [result] = await ctx.database.prepared<PurchaseOutcome>('purchase', PURCHASE, [
      accountId, body.ref_id, invoice, items, quantities, notes, body.lock_token || null, ctx.fulfillable,
    ])
    return { result, invoice }
  }
  // An invoice collision is worth another go, with a new invoice.
  const invoiceTaken = (e: { code?: string; constraint?: string }) => e.code === '23505' && e.constraint === 'orders_invoice_key'
  const { result, invoice } = await retrying(attempt, invoiceTaken).catch((error: DbError) => {
    throw appErrorFromDatabase(error) ?? error
  })
  if (result.refused === 'REF_ID_ALREADY_EXIST') {
    throw new AppError('REF_ID_ALREADY_EXIST', { data: await findOrderSummary(ctx.db, accountId, body.ref_id) })
  }
  return { id: result.order_id, invoice, ref_id: body.ref_id, amount: result.amount, status: 'paid', created_at: result.created_at }
}
