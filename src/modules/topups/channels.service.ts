import { inTransaction, type Database } from '../../db/database.js'
import type { ChannelType, PaymentChannel } from '../../db/schema.js'
import { AppError, invalidField } from '../../errors.js'
import type { GatewayChannel } from './payment-gateway.js'
import {
  channelByCode,
  channelRows,
  insertChannel,
  lockChannelRange,
  updateChannelColumns,
  upsertGatewayChannel,
  type BankAccount,
} from './channels.queries.js'
import { channelFee } from './fees.js'

export type ChannelInput = {
  code: string
  name: string
  type: ChannelType
  fee_flat?: number
  fee_percent?: number
  min_amount?: number
  max_amount?: number
  active?: boolean
  bank?: string
  account_number?: string
  account_name?: string
}
export type ChannelChanges = Partial<Omit<ChannelInput, 'code'>>

/** The least any top-up may be (spec: minimum 10000 Rupiah); a channel may ask for more. */
export const MIN_TOPUP = 10_000
const DEFAULT_MAX = 10_000_000

/** numeric arrives as a string from either driver: a channel always leaves as numbers. */
export function channelRow(row: PaymentChannel) {
  return { ...row, fee_percent: Number(row.fee_percent) }
}
export type Channel = ReturnType<typeof channelRow>

/** The operator's view: every column, `active` as it is stored. */
export function operatorChannel(c: Channel) {
  return { ...c, created_at: c.created_at.toISOString(), updated_at: c.updated_at.toISOString() }
}

/**
 * What resellers see (docs/design.md §7). `fee` alone reads as the channel's fee for any amount, so the
 * listing names the amount it priced (`?amount=`, else the minimum) and its total beside the rule.
 */
export function resellerChannel(c: Channel, asked?: number) {
  const amount = asked ?? c.min_amount
  const fee = channelFee(c, amount)
  return {
    code: c.code,
    name: c.name,
    type: c.type,
    fee,
    fee_flat: c.fee_flat,
    fee_percent: c.fee_percent,
    amount,
    total: amount + fee,
    min_amount: c.min_amount,
    max_amount: c.max_amount,
    status: c.active ? ('on' as const) : ('off' as const),
  }
}

export async function listChannels(db: Database): Promise<Channel[]> {
  const rows = await channelRows(db)
  return rows.map(channelRow)
}

export async function findChannel(db: Database, code: string): Promise<Channel | undefined> {
  const row = await channelByCode(db, code)
  return row && channelRow(row)
}

/** The percentage is stored to 3 decimals: a finer one would read back as another value. */
function refuseFinePercent(percent: number | undefined): void {
  if (percent !== undefined && Math.round(percent * 1000) / 1000 !== percent)
    throw invalidField('fee_percent', 'must have at most 3 decimals')
}

function refuseInvertedRange(min: number, max: number): void {
  if (max < min) throw invalidField('max_amount', `must be at least min_amount (${min})`)
}

/** A bank_transfer channel names the account transfers go to (docs/design.md §7b): all three fields. */
function refuseBankWithoutAccount(c: { type: ChannelType } & BankAccount): void {
  if (c.type !== 'bank_transfer') return
  for (const field of ['bank', 'account_number', 'account_name'] as const)
    if (!c[field]) throw invalidField(field, 'is required on a bank_transfer channel')
}

/** One statement: runs alone or inside the caller's transaction (the demo seed). */
export async function createChannelWithin(db: Database, input: ChannelInput): Promise<Channel> {
  const min = input.min_amount ?? MIN_TOPUP
  const max = input.max_amount ?? Math.max(DEFAULT_MAX, min)
  refuseFinePercent(input.fee_percent)
  refuseInvertedRange(min, max)
  refuseBankWithoutAccount(input)
  const row = await insertChannel(db, {
    bank: input.bank,
    account_number: input.account_number,
    account_name: input.account_name,
    code: input.code,
    name: input.name,
    type: input.type,
    fee_flat: input.fee_flat ?? 0,
    fee_percent: input.fee_percent ?? 0,
    min_amount: min,
    max_amount: max,
    active: input.active ?? true,
  })
  if (!row) throw new AppError('DUPLICATE', { detail: `channel ${input.code} exists` })
  return channelRow(row)
}

/** Only the columns named here change; the range is checked against what is stored, under the row's lock. */
export async function updateChannel(db: Database, code: string, changes: ChannelChanges): Promise<Channel> {
  const { fee_percent, min_amount, max_amount } = changes
  refuseFinePercent(fee_percent)
  return inTransaction(db, async (trx) => {
    const current = await lockChannelRange(trx, code)
    if (!current) throw new AppError('CHANNEL_NOT_FOUND')
    refuseInvertedRange(min_amount ?? current.min_amount, max_amount ?? current.max_amount)
    refuseBankWithoutAccount({
      type: changes.type ?? current.type,
      bank: changes.bank ?? current.bank,
      account_number: changes.account_number ?? current.account_number,
      account_name: changes.account_name ?? current.account_name,
    })
    const row = await updateChannelColumns(trx, code, changes)
    return channelRow(row)
  })
}

/**
 * The gateway's channel list into ours: new codes are added as the gateway has them, known ones
 * take its name, fees and range; whether a channel is offered stays the operator's decision.
 */
export async function importChannels(db: Database, channels: GatewayChannel[]): Promise<{ added: number; updated: number }> {
  let added = 0
  let updated = 0
  await inTransaction(db, async (trx) => {
    for (const c of channels) {
      const min = Math.max(MIN_TOPUP, c.min_amount)
      const max = Math.max(min, c.max_amount)
      const inserted = await upsertGatewayChannel(trx, {
        code: c.code,
        name: c.name,
        type: c.type,
        fee_flat: c.fee_flat,
        fee_percent: c.fee_percent,
        min_amount: min,
        max_amount: max,
        active: c.active,
      })
      if (inserted) added++
      else updated++
    }
  })
  return { added, updated }
}
