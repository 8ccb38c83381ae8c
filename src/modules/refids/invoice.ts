import crypto from 'node:crypto'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

/**
 * `INV` + YYYYMMDD + 8 random upper-case letters/digits (docs/design.md §3); sandbox orders use `SBX`, bill inquiries'
 * upstream refs `INQ`.
 */
export function newInvoice(prefix: 'INV' | 'SBX' | 'TOP' | 'INQ', now = new Date()): string {
  const date = now.toISOString().slice(0, 10).replaceAll('-', '')
  let suffix = ''
  for (let i = 0; i < 8; i++) suffix += ALPHABET[crypto.randomInt(ALPHABET.length)]
  return `${prefix}${date}${suffix}`
}
