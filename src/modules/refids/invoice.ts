import crypto from 'node:crypto'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

/**
 * `INV` + YYYYMMDD + 8 random upper-case letters/digits (docs/design.md §3); sandbox orders use `SBX`, bill inquiries'
 * upstream refs `INQ`.
 */
export type InvoicePrefix = 'INV' | 'SBX' | 'TOP' | 'INQ'

export function newInvoice(prefix: InvoicePrefix, now = new Date()): string {
  const date = now.toISOString().slice(0, 10).replaceAll('-', '')
  let suffix = ''
  for (let i = 0; i < 8; i++) suffix += ALPHABET[crypto.randomInt(ALPHABET.length)]
  return `${prefix}${date}${suffix}`
}

/**
 * SQL true for every invoice newInvoice(prefix) makes: 19 characters, the prefix first. Orders, top-ups
 * and sandbox orders take their invoices from newInvoice alone, so a ref failing it names no invoice.
 */
export const mayBeInvoice = (prefix: InvoicePrefix, ref: string) => `(length(${ref}) = 19 AND left(${ref}, 3) = '${prefix}')`
