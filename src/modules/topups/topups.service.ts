import type { AppContext } from '../../context.js'
import { inTransaction, type Database } from '../../db/database.js'
import type { Topup, TopupStatus } from '../../db/schema.js'
import { AppError, invalidField } from '../../errors.js'
import { creditBalance, MAX_MONEY } from '../ledger/index.js'
import { claimTopupRefId, isRefIdHeld, newInvoice, refIdTaken, refuseBlankRefId } from '../refids/index.js'
import { findChannel, importChannels } from './channels.service.js'
import { bankTransferView, createBankTransferTopup } from './bank-transfer.service.js'
import { channelFee } from './fees.js'
import { GatewayError, type PaymentGateway } from './payment-gateway.js'
import {
  expirePendingTopups,
  expireTopupNow,
  findTopupByReference,
  insertTopup,
  markTopupPaid,
  payerOf,
  setGatewayStatus,
  topupByReference,
  topupsPage,
} from './topups.queries.js'

/** How long a payment link lives: within every channel's window at Tripay (QRIS and e-wallets allow 60 minutes at most). */
export const TOPUP_TTL_MS = 60 * 60 * 1000

export type TopupBody = { amount: number; channel: string; ref_id?: string }

/**
 * POST /api/v1/balance. Checks, then asks the gateway for a payment link (no transaction open during
 * the call), then claims the ref_id and stores the pending top-up in one transaction. A gateway
 * that fails stores nothing and leaves the ref_id free; without a ref_id the invoice is the ref_id.
 */
export async function createTopup(db: Database, deps: Pick<AppContext, 'paymentGateway' | 'config'>, accountId: number, body: TopupBody) {
  if (body.ref_id !== undefined) refuseBlankRefId(body.ref_id)
  const channel = await findChannel(db, body.channel)
  if (!channel || !channel.active) throw invalidField('channel', 'is not an available channel (see GET /api/v1/balance/channels)')
  if (body.amount < channel.min_amount) throw invalidField('amount', `must be at least ${channel.min_amount} on ${channel.code}`)
  if (body.amount > channel.max_amount) throw invalidField('amount', `must be at most ${channel.max_amount} on ${channel.code}`)
  const fee = channelFee(channel, body.amount)
  // A bank transfer's total also carries its unique code (up to 999).
  const codeRoom = channel.type === 'bank_transfer' ? 999 : 0
  if (body.amount + fee + codeRoom > MAX_MONEY) throw invalidField('amount', `with its fee must be at most ${MAX_MONEY - codeRoom}`)
  const invoice = newInvoice('TOP')
  const refId = body.ref_id ?? invoice
  if (await isRefIdHeld(db, accountId, refId)) throw await refIdTaken(db, accountId, refId)
  if (channel.type === 'bank_transfer')
    return createdTopupView(await createBankTransferTopup(db, deps, accountId, { channel, amount: body.amount, fee, refId, invoice }))
  const account = await payerOf(db, accountId)
  const link = await deps.paymentGateway
    .createPayment({
      invoice,
      channel: channel.code,
      amount: body.amount,
      fee,
      expiresAt: new Date(Date.now() + TOPUP_TTL_MS),
      customer: { name: account.name, email: account.email ?? `reseller-${accountId}@${new URL(deps.config.publicUrl).hostname}` },
    })
    .catch((error: unknown) => {
      if (!(error instanceof GatewayError)) throw error
      throw new AppError('SERVICE_UNAVAILABLE', { detail: error.message })
    })
  const topup = await inTransaction(db, async (trx) => {
    if (!(await claimTopupRefId(trx, accountId, refId))) return undefined
    return insertTopup(trx, {
      account_id: accountId,
      ref_id: refId,
      invoice,
      channel: channel.code,
      gateway: deps.paymentGateway.name,
      reference: link.reference,
      amount: body.amount,
      fee: link.fee,
      total: body.amount + link.fee,
      payment_url: link.paymentUrl,
      expires_at: link.expiresAt,
    })
  })
  if (!topup) throw await refIdTaken(db, accountId, refId)
  return createdTopupView(topup)
}

/** What a reseller is told of a top-up when it is created. */
function createdTopupView(t: Topup) {
  return {
    payment_url: t.payment_url,
    amount: t.amount,
    expires_at: t.expires_at,
    reference: t.reference,
    invoice: t.invoice,
    ref_id: t.ref_id,
    channel: t.channel,
    fee: t.fee,
    total: t.total,
    status: 'pending' as const,
    created_at: t.created_at,
    ...bankTransferView(t),
  }
}

/** A top-up by its gateway reference, only where that gateway settles it: TOPUP_NOT_FOUND otherwise. */
export async function findGatewayTopup(db: Database, gateway: 'simulator' | 'tripay', reference: string) {
  const topup = await findTopupByReference(db, reference)
  if (!topup || topup.gateway !== gateway) throw new AppError('TOPUP_NOT_FOUND')
  return topup
}

/** Who is paying: the simulator's page or the operator (simulator top-ups, before expiry), or the gateway's signed callback. */
export type PaidBy = 'page' | 'operator' | 'tripay'

/**
 * Marks a top-up paid and credits its amount: the conditional update and the ledger entry in one
 * transaction, so repeats and races credit once (the unique (topup_id) ledger index guards it twice).
 * The gateway's PAID (its paid total already matched: recordGatewayPaid) counts even after local
 * expiry: the money was received. A top-up in review or resolved by an operator is theirs: the
 * gateway's repeat is acknowledged and changes nothing.
 */
export async function payTopup(db: Database, reference: string, by: PaidBy): Promise<{ topup: Topup; credited: boolean }> {
  const gateway = by === 'tripay' ? 'tripay' : 'simulator'
  return inTransaction(db, async (trx) => {
    const paid = await markTopupPaid(trx, reference, gateway)
    if (paid) {
      await creditBalance(trx, {
        accountId: paid.account_id,
        type: 'topup',
        amount: paid.amount,
        description: `Top-up ${paid.invoice} via ${paid.channel}`,
        invoice: paid.invoice,
        topupId: paid.id,
      })
      return { topup: paid, credited: true }
    }
    const current = await topupByReference(trx, reference)
    if (!current) throw new AppError('TOPUP_NOT_FOUND')
    if (current.status === 'paid' || (by === 'tripay' && current.gateway === 'tripay')) return { topup: current, credited: false }
    if (current.status === 'review') throw new AppError('INVALID_STATE', { detail: 'the top-up awaits an operator’s review' })
    if (current.gateway !== gateway)
      throw new AppError('INVALID_STATE', { detail: `a ${current.gateway} top-up is settled by its gateway` })
    if (current.status === 'failed') throw new AppError('INVALID_STATE', { detail: 'the top-up failed' })
    throw new AppError('TOPUP_EXPIRED')
  })
}

/** A gateway's EXPIRED, FAILED or REFUND: retires a pending top-up, credits nothing; a refund of a paid one is recorded for the operator. */
export async function recordGatewayStatus(db: Database, reference: string, status: 'EXPIRED' | 'FAILED' | 'REFUND') {
  const next = status === 'EXPIRED' ? 'expired' : status === 'FAILED' ? 'failed' : null
  const row = await setGatewayStatus(db, reference, status, next)
  if (!row) throw new AppError('TOPUP_NOT_FOUND')
  return row
}

/**
 * POST /topups/{reference}/expire: a pending top-up retired at once (an operator's call: the reseller
 * will not pay it). Nothing is credited; a transfer that still comes within 7 days is matched as for any
 * expired one. A top-up not pending is 409 INVALID_STATE.
 */
export async function expireTopup(db: Database, reference: string): Promise<Topup> {
  return inTransaction(db, async (trx) => {
    const expired = await expireTopupNow(trx, reference)
    if (expired) return expired
    const current = await topupByReference(trx, reference)
    if (!current) throw new AppError('TOPUP_NOT_FOUND')
    throw new AppError('INVALID_STATE', { detail: `the top-up is ${current.status}: only a pending one can be expired` })
  })
}

/** The sweeper: pending top-ups past expires_at turn expired, a batch at a time. */
export async function expireTopups(db: Database, batch = 500): Promise<number> {
  return expirePendingTopups(db, batch)
}

/** Every account's top-ups for an operator, newest first. */
export async function listTopups(db: Database, q: { page: number; per_page: number; status?: TopupStatus; account_id?: number }) {
  return topupsPage(db, q)
}

/** The gateway's channel list imported (new added, known updated; on/off stays the operator's); a failing gateway is a 503. */
export async function syncChannels(db: Database, gateway: PaymentGateway) {
  const channels = await gateway.listChannels().catch((error: unknown) => {
    throw error instanceof GatewayError ? new AppError('SERVICE_UNAVAILABLE', { detail: error.message }) : error
  })
  return importChannels(db, channels)
}
