// reports: what the store earned over what it cost (docs/design.md §11b margin) and what slipped past the floor (§11c Margin
// watch), for the operator API, the console and the CLI.
export { reportRoutes } from './reports.routes.js'
export { marginReport, MAX_REPORT_DAYS } from './margin.service.js'
export { MARGIN_GROUPS, type MarginGroup, type MarginReport, type MarginRow } from './reports.schemas.js'
export { floorBlockedItems, marginWatch } from './margin-watch.service.js'
export { WATCH_CAUSES, type MarginWatch } from './margin-watch.schemas.js'
