import crypto from 'node:crypto'

// Moota (docs/design.md §7b): the mutation service that watches the operator's bank account and pushes
// each new mutation to POST /api/hooks/moota, a JSON array signed in the `Signature` header.

/** One mutation as Moota pushes it; fields beyond these are kept as they came. */
export type MootaMutation = {
  mutation_id: string
  bank_id?: string
  account_number: string
  amount: number | string
  type: 'CR' | 'DB'
  description?: string
  date?: string
  [more: string]: unknown
}

/** Lower-case hex HMAC-SHA256 of the raw body under the webhook's secret token. */
export function mootaSignature(secret: string, rawBody: Buffer | string): string {
  return crypto.createHmac('sha256', secret).update(rawBody).digest('hex')
}

/** Whether `signature` is the body's, compared in constant time; anything but 64 hex digits is not. */
export function isMootaPushSigned(secret: string, rawBody: Buffer, signature: string | undefined): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) return false
  return crypto.timingSafeEqual(Buffer.from(mootaSignature(secret, rawBody), 'hex'), Buffer.from(signature, 'hex'))
}
