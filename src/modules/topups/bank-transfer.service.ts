import crypto from 'node:crypto'
import type { AppContext } from '../../context.js'
import { inTransaction, type Database } from '../../db/database.js'
import type { Topup } from '../../db/schema.js'
import { AppError } from '../../errors.js'
import { claimTopupRefId, refIdTaken } from '../refids/index.js'
import type { Channel } from './channels.service.js'
import { reservedTotals, reserveTotal } from './bank-transfer.queries.js'
import { findTopupByReference, insertTopup } from './topups.queries.js'

/** A transfer's total stays its top-up's this long after it expires: a late transfer must never credit another (docs/design.md §7b). */
export const RESERVED_AFTER_EXPIRY_MS = 7 * 24 * 60 * 60 * 1000
const CODES = 999
// A concurrent request may take the code picked: pick again from what is free then.
const ATTEMPTS = 5

class TotalTaken extends Error {}

/** Where the payer reads the instructions: a page of this service, served in production too. */
export const instructionsUrl = (publicUrl: string, reference: string) => `${publicUrl}/pay/bank/${encodeURIComponent(reference)}`

/**
 * POST /api/v1/balance on a bank_transfer channel: the amount (+ fee) plus a unique code 1–999 whose
 * total no live top-up to that account holds, reserved with the top-up in one transaction; the
 * ref_id claimed in the same one. No free code: 503 TRY_AGAIN_LATER with Retry-After.
 */
export async function createBankTransferTopup(
  db: Database,
  deps: Pick<AppContext, 'config'>,
  accountId: number,
  p: { channel: Channel; amount: number; fee: number; refId: string; invoice: string },
): Promise<Topup> {
  const accountNumber = p.channel.account_number!
  const base = p.amount + p.fee
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const reserved = await reservedTotals(db, accountNumber, base + 1, base + CODES)
    const taken = new Set(reserved.map((r) => r.total - base))
    const free: number[] = []
    for (let code = 1; code <= CODES; code++) if (!taken.has(code)) free.push(code)
    if (free.length === 0) {
      const soonest = Math.min(...reserved.map((r) => r.reservedUntil.getTime()))
      const seconds = Math.max(60, Math.ceil((soonest - Date.now()) / 1000))
      throw new AppError('TRY_AGAIN_LATER', {
        headers: { 'retry-after': String(seconds) },
        fieldErrors: { amount: [`every unique code for ${p.amount} is reserved now: retry later, or top up another amount`] },
      })
    }
    const code = free[crypto.randomInt(free.length)]!
    const expiresAt = new Date(Date.now() + deps.config.bankTransferHours * 3_600_000)
    const reference = `BT${crypto.randomBytes(10).toString('hex').toUpperCase()}`
    try {
      const topup = await inTransaction(db, async (trx) => {
        if (!(await claimTopupRefId(trx, accountId, p.refId))) return undefined
        const row = await insertTopup(trx, {
          account_id: accountId,
          ref_id: p.refId,
          invoice: p.invoice,
          channel: p.channel.code,
          gateway: 'bank_transfer',
          reference,
          amount: p.amount,
          fee: p.fee,
          total: base + code,
          unique_code: code,
          pay_bank: p.channel.bank,
          pay_account_number: accountNumber,
          pay_account_name: p.channel.account_name,
          payment_url: instructionsUrl(deps.config.publicUrl, reference),
          expires_at: expiresAt,
        })
        const until = new Date(expiresAt.getTime() + RESERVED_AFTER_EXPIRY_MS)
        if (!(await reserveTotal(trx, { accountNumber, total: row.total, topupId: row.id, until }))) throw new TotalTaken()
        return row
      })
      if (!topup) throw await refIdTaken(db, accountId, p.refId)
      return topup
    } catch (error) {
      if (!(error instanceof TotalTaken)) throw error
    }
  }
  throw new AppError('TRY_AGAIN_LATER', { headers: { 'retry-after': '1' } })
}

/** What the payer is told beside the usual fields: the code and the account to transfer the total to. */
export function bankTransferView(t: Topup) {
  if (t.gateway !== 'bank_transfer') return {}
  return {
    unique_code: t.unique_code!,
    pay_to: { bank: t.pay_bank!, account_number: t.pay_account_number!, account_name: t.pay_account_name! },
  }
}

/** A bank-transfer top-up by its reference, with its effective status; TOPUP_NOT_FOUND for any other. */
export async function findBankTransfer(db: Database, reference: string) {
  const topup = await findTopupByReference(db, reference)
  if (!topup || topup.gateway !== 'bank_transfer') throw new AppError('TOPUP_NOT_FOUND')
  return topup
}
