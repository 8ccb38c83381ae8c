import type { Config } from '../../config.js'
import { tripayGateway } from '../../providers/tripay.js'
import { simulatorGateway, type PaymentGateway } from './payment-gateway.js'

/** PAYMENT_GATEWAY: the simulator (default) or Tripay, whose callbacks come to /api/v1/callbacks/tripay. */
export function createPaymentGateway(config: Config, fetchFn: typeof fetch = fetch): PaymentGateway {
  if (config.paymentGateway === 'tripay') return tripayGateway(config.tripay!, `${config.publicUrl}/api/v1/callbacks/tripay`, fetchFn)
  return simulatorGateway(config.publicUrl)
}
