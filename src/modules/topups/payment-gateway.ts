import crypto from 'node:crypto'
import type { ChannelType, PaymentGateway as GatewayName } from '../../db/schema.js'

export type PaymentRequest = {
  invoice: string
  channel: string
  amount: number
  fee: number
  expiresAt: Date
  customer: { name: string; email: string }
}
/** The gateway's answer: its reference, where the payer pays, and what it charges the payer. */
export type PaymentLink = { reference: string; paymentUrl: string; fee: number; expiresAt: Date }
export type GatewayChannel = {
  code: string
  name: string
  type: ChannelType
  fee_flat: number
  fee_percent: number
  min_amount: number
  max_amount: number
  active: boolean
}

/** One payment gateway (docs/design.md §7): creates payment links and lists its channels. */
export type PaymentGateway = {
  name: GatewayName
  createPayment(request: PaymentRequest): Promise<PaymentLink>
  listChannels(): Promise<GatewayChannel[]>
}

/** The gateway could not be reached or refused the request: the caller answers 503. */
export class GatewayError extends Error {}

/**
 * The simulator: the payment link is this service's own pay page (GET /sim/pay/{reference}), and
 * its Pay button settles the top-up in-process. Its channels are the operator's own.
 */
export function simulatorGateway(publicUrl: string): PaymentGateway {
  return {
    name: 'simulator',
    async createPayment(request) {
      const reference = `SIM${crypto.randomBytes(12).toString('hex').toUpperCase()}`
      return { reference, paymentUrl: `${publicUrl}/sim/pay/${reference}`, fee: request.fee, expiresAt: request.expiresAt }
    },
    async listChannels() {
      return []
    },
  }
}
