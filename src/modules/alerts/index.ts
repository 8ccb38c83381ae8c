// The alerts module's public face (docs/design.md §11e).
export { channelsRow, listAlertRows, reconcileKind, type AlertRow, type Firing, type Targets } from './alerts.queries.js'
