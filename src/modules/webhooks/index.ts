// webhooks: resellers' settings, signing, payloads built once per event, the delivery worker and its
// transport with the SSRF guard.
export { claimDue, earliestDue, recordAttempts, relayOutbox, type Capacity } from './delivery.queries.js'
export { failingWebhooks, storeDeliveries, updateAccountWebhook } from './operator-webhooks.service.js'
export { nextAttemptAt, systemClock, type Clock } from './schedule.js'
// For the operator alerts' signed webhook (docs/design.md §11e): the same URL rule, secret format and signature.
export { callbackUrlProblem } from './receiver-address.js'
export { newWebhookSecret, standardSignature } from './signing.js'
export { createTransport, type Transport } from './transport.js'
export { NODE, PHP, PYTHON } from './verification-code.js'
export { createWebhookWorker } from './webhook-worker.js'
export { adminWebhookRoutes, storeWebhookDeliveryRoutes } from './webhooks-admin.routes.js'
export { webhookRoutes } from './webhooks.routes.js'
export { Delivery, SettingsBody, WebhookSettings } from './webhooks.schemas.js'
export {
  accountDeliveries,
  accountWebhook,
  deliveriesOf,
  generateSecret,
  redeliver,
  redeliverForAccount,
  sendTest,
  settingsOf,
  updateSettings,
} from './webhooks.service.js'
export { pruneDeliveries } from './retention.queries.js'
