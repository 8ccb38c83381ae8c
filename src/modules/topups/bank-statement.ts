import { AppError, invalidField } from '../../errors.js'
import type { Database } from '../../db/database.js'
import { findChannel } from './channels.service.js'
import type { NewMutation } from './bank-mutations.queries.js'
import { recordMutations, rupiahOf, statementMutationId, type Counts } from './bank-mutations.service.js'

/** Rows of RFC 4180 CSV: quoted fields may hold commas, quotes ("") and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  const endRow = () => {
    row.push(field)
    rows.push(row)
    row = []
    field = ''
  }
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c !== '"') field += c
      else if (text[i + 1] === '"') field += text[++i]
      else quoted = false
    } else if (c === '"' && field === '') quoted = true
    else if (c === ',') {
      row.push(field)
      field = ''
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++
      endRow()
    } else field += c
  }
  if (field !== '' || row.length > 0) endRow()
  return rows.filter((r) => r.some((f) => f.trim() !== ''))
}

const HEADER = ['date', 'description', 'amount', 'type']

/**
 * A bank statement of a bank_transfer channel's account (docs/design.md §7b): header
 * `date,description,amount,type[,mutation_id]`, each row through the same matcher as Moota's push.
 * A row without a mutation_id is identified by its fields and its place among identical rows, so
 * importing the same statement again stores and credits nothing more. Every row is checked before any is stored.
 */
export async function importStatement(db: Database, channelCode: string, csv: string): Promise<Counts & { rows: number }> {
  const channel = await findChannel(db, channelCode)
  if (!channel) throw new AppError('CHANNEL_NOT_FOUND')
  if (channel.type !== 'bank_transfer' || !channel.account_number)
    throw invalidField('channel', 'must be a bank_transfer channel (the statement is of its account)')
  const [header, ...lines] = parseCsv(csv.replace(/^\uFEFF/, ''))
  const names = (header ?? []).map((h) => h.trim().toLowerCase())
  if (names.slice(0, 4).join() !== HEADER.join() || (names.length === 5 && names[4] !== 'mutation_id') || names.length > 5)
    throw invalidField('csv', `the first row must be ${HEADER.join(',')}[,mutation_id]`)
  const seen = new Map<string, number>()
  const mutations: NewMutation[] = lines.map((cells, i) => {
    const line = i + 2
    const [date = '', description = '', amountText = '', typeText = '', id = ''] = cells.map((c) => c.trim())
    const amount = rupiahOf(amountText.replace(/,/g, ''))
    const type = typeText.toUpperCase()
    if (amount === undefined) throw invalidField(`line ${line}`, 'amount must be whole Rupiah (digits, optionally .00)')
    if (type !== 'CR' && type !== 'DB') throw invalidField(`line ${line}`, 'type must be CR or DB')
    if (description.length > 500 || date.length > 64 || id.length > 191) throw invalidField(`line ${line}`, 'a field is too long')
    const fields = [date, description, String(amount), type]
    const key = JSON.stringify(fields)
    const occurrence = seen.get(key) ?? 0
    seen.set(key, occurrence + 1)
    return {
      mutation_id: id || statementMutationId(channel.account_number!, fields, occurrence),
      source: 'statement' as const,
      bank_id: null,
      account_number: channel.account_number!,
      amount,
      type,
      description,
      date: date || null,
      raw: { line, cells },
    }
  })
  return { rows: mutations.length, ...(await recordMutations(db, mutations, 'statement')) }
}
