// The alerts module's public face (docs/design.md §11e).
export { channelsRow, listAlertRows, reconcileKind, type AlertRow, type Firing, type Targets } from './alerts.queries.js'
export { currentTargets, evaluateAlerts, type EvaluateDeps } from './alerts.service.js'
export { type ConditionSettings } from './conditions.queries.js'
export { deliverAlerts, type AlertDeliveryDeps } from './delivery.service.js'
export { alertText, headline, webhookBody } from './senders.js'
// The operator's surfaces: the admin routes, and the services the console calls.
export { alertAdminRoutes } from './alerts.routes.js'
export { listAlerts, type AlertView } from './alerts-admin.service.js'
export { getChannels, putChannels, type ChannelsBody, type ChannelsView } from './channels.service.js'
export { registerAlertGauges } from './gauges.js'
