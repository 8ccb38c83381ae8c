import crypto from 'node:crypto'
import { inTransaction, type Database, type Trx } from '../../db/database.js'
import type { BankMutation, MatchedBy, Topup } from '../../db/schema.js'
import { AppError, invalidField } from '../../errors.js'
import { creditBalance, MAX_MONEY } from '../ledger/index.js'
import {
  bankTopupByReference,
  claimMutation,
  creditableTopups,
  creditedTopupWithTotal,
  markMutationDuplicate,
  markMutationIgnored,
  markMutationMatched,
  markTransferPaid,
  mutationById,
  mutationsPage,
  type MutationFilter,
  type NewMutation,
} from './bank-mutations.queries.js'

export type { NewMutation } from './bank-mutations.queries.js'
export type Outcome = 'matched' | 'unmatched' | 'duplicate' | 'repeated'
export type Counts = Record<Outcome, number>

/** Whole Rupiah from a number or a decimal string ("100123", "100123.00"); undefined for anything else. */
export function rupiahOf(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : ''
  if (!/^\d{1,16}(\.0{1,2})?$/.test(text)) return undefined
  const amount = Number(text)
  return Number.isSafeInteger(amount) && amount <= MAX_MONEY ? amount : undefined
}

/** A bank account number as digits only (banks and Moota write it with or without separators). */
export const accountDigits = (value: string) => value.replace(/\D/g, '')

async function credit(trx: Trx, topup: Topup, amount: number, mutationId: string) {
  await creditBalance(trx, {
    accountId: topup.account_id,
    type: 'topup',
    amount,
    description: `Top-up ${topup.invoice} via ${topup.channel}, bank transfer ${mutationId}`.slice(0, 500),
    invoice: topup.invoice,
    topupId: topup.id,
  })
}

/**
 * One mutation into the books (docs/design.md §7b), in one transaction: stored once by mutation_id (a
 * repeat changes nothing); a CR equal to the total of exactly one creditable top-up to that account
 * credits it: both rows' conditional updates and the ledger entry commit together or not at all.
 */
export async function recordMutation(db: Database, m: NewMutation, by: MatchedBy): Promise<Outcome> {
  return inTransaction(db, async (trx) => {
    const id = await claimMutation(trx, m)
    if (id === undefined) return 'repeated'
    if (m.type !== 'CR') return 'unmatched'
    const candidates = await creditableTopups(trx, m.account_number, m.amount)
    if (candidates.length === 1) {
      const [candidate] = candidates
      const credited = m.amount - candidate!.fee
      const topup = await markTransferPaid(trx, {
        topupId: candidate!.id,
        accountNumber: m.account_number,
        paidTotal: m.amount,
        credit: credited,
        exactTotal: true,
      })
      // Another transfer took it between the read and the update: this one waits for an operator.
      if (topup) {
        const matched = await markMutationMatched(trx, { id, topupId: topup.id, by, credit: credited, from: ['unmatched'] })
        if (!matched) throw new Error(`bank mutation ${id} changed inside its own transaction`)
        await credit(trx, topup, credited, m.mutation_id)
        return 'matched'
      }
    }
    // None left to credit (or the race lost): the total of one already credited is the transfer seen again.
    if (candidates.length <= 1) {
      const credited = await creditedTopupWithTotal(trx, m.account_number, m.amount)
      if (credited) {
        await markMutationDuplicate(trx, id, credited.id)
        return 'duplicate'
      }
    }
    return 'unmatched'
  })
}

/** Mutations one after another, each its own transaction; how many went which way. */
export async function recordMutations(db: Database, mutations: NewMutation[], by: MatchedBy): Promise<Counts> {
  const counts: Counts = { matched: 0, unmatched: 0, duplicate: 0, repeated: 0 }
  for (const m of mutations) counts[await recordMutation(db, m, by)]++
  return counts
}

/**
 * An operator matches a mutation to a top-up (docs/design.md §7b): credits the money that came (the
 * mutation's amount, less the channel's fee if any), once. Both conditional updates in one
 * transaction: a mutation matched before, or a top-up credited before, is a 409 and changes nothing.
 */
export async function matchMutation(db: Database, id: number, topupReference: string, note?: string) {
  return inTransaction(db, async (trx) => {
    const mutation = await mutationById(trx, id)
    if (!mutation) throw new AppError('NOT_FOUND', { detail: `no bank mutation ${id}` })
    const target = await bankTopupByReference(trx, topupReference)
    if (!target) throw new AppError('TOPUP_NOT_FOUND')
    if (target.gateway !== 'bank_transfer') throw invalidField('topup_reference', `is a ${target.gateway} top-up, not a bank transfer`)
    if (mutation.type !== 'CR') throw new AppError('INVALID_STATE', { fieldErrors: { id: ['a debit (DB) credits nothing'] } })
    const credited = mutation.amount - target.fee
    if (credited <= 0) throw invalidField('topup_reference', `the mutation's amount does not cover the top-up's fee (${target.fee})`)
    // The top-up first, then the mutation: a push locks only a mutation row of its own before a top-up, so no cycle.
    const topup = await markTransferPaid(trx, {
      topupId: target.id,
      accountNumber: mutation.account_number,
      paidTotal: mutation.amount,
      credit: credited,
      exactTotal: false,
    })
    if (!topup) {
      const why = target.pay_account_number !== mutation.account_number ? 'is paid to another account' : `is ${target.status}`
      throw new AppError('INVALID_STATE', { fieldErrors: { topup_reference: [why] } })
    }
    const matched = await markMutationMatched(trx, {
      id,
      topupId: target.id,
      by: 'operator',
      credit: credited,
      from: ['unmatched', 'duplicate', 'ignored'],
      note: note?.trim() || differenceNote(mutation, target),
    })
    if (!matched) throw new AppError('INVALID_STATE', { fieldErrors: { id: [`the mutation is ${mutation.status}`] } })
    await credit(trx, topup, credited, mutation.mutation_id)
    return { mutation: matched, topup }
  })
}

const differenceNote = (m: BankMutation, t: Topup) =>
  m.amount === t.total ? undefined : `matched by hand: transferred ${m.amount}, the top-up's total was ${t.total}`

export async function ignoreMutation(db: Database, id: number, note?: string) {
  const row = await markMutationIgnored(db, id, note?.trim() || undefined)
  if (row) return row
  const current = await mutationById(db, id)
  if (!current) throw new AppError('NOT_FOUND', { detail: `no bank mutation ${id}` })
  throw new AppError('INVALID_STATE', { fieldErrors: { id: [`the mutation is ${current.status}`] } })
}

export async function listMutations(db: Database, q: MutationFilter) {
  return mutationsPage(db, q)
}

/** A statement row's identity when it has none: its fields and its place among identical rows, hashed. */
export function statementMutationId(accountNumber: string, fields: string[], occurrence: number): string {
  const digest = crypto
    .createHash('sha256')
    .update(JSON.stringify([accountNumber, ...fields, occurrence]))
    .digest('hex')
  return `stmt-${digest.slice(0, 40)}`
}
