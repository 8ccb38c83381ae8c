// The alerts module's public face (docs/design.md §11e).
export { channelsRow, listAlertRows, reconcileKind, type AlertRow, type Firing, type Targets } from './alerts.queries.js'
export { currentTargets, evaluateAlerts, type EvaluateDeps } from './alerts.service.js'
export { type ConditionSettings } from './conditions.queries.js'
export { deliverAlerts, type AlertDeliveryDeps } from './delivery.service.js'
export { alertText, headline, webhookBody } from './senders.js'
