import { mootaSignature, type MootaMutation } from './moota.js'
import crypto from 'node:crypto'

/** How the simulator reaches the hook: over HTTP, or in-process (the app's inject). Answers the status. */
export type PushTransport = (rawBody: string, headers: Record<string, string>) => Promise<number>

/**
 * Moota's side outside production (docs/design.md §7b): a credit on the operator's account pushed as
 * Moota does, a JSON array signed with HMAC-SHA256 in `Signature`, to POST /api/hooks/moota.
 */
export function mootaSimulator(secret: string, send: PushTransport) {
  return {
    /** A CR mutation of `amount` on the account, as Moota would report a transfer in. */
    credit(accountNumber: string, amount: number, description = 'TRSF E-BANKING CR SIMULATED'): MootaMutation {
      return {
        mutation_id: `sim-${crypto.randomBytes(8).toString('hex')}`,
        bank_id: 'sim-bank',
        account_number: accountNumber,
        amount,
        type: 'CR',
        description,
        date: new Date().toISOString().slice(0, 19).replace('T', ' '),
        balance: 0,
      }
    },
    /** Pushes the mutations signed; the hook's status. */
    push(mutations: MootaMutation[]): Promise<number> {
      const raw = JSON.stringify(mutations)
      return send(raw, { 'content-type': 'application/json', signature: mootaSignature(secret, raw) })
    },
  }
}
