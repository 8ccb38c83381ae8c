// reports: what the store earned over what it cost (DESIGN §11b margin), for the operator API, the console and the CLI.
export { reportRoutes } from './reports.routes.js'
export { marginReport, MAX_REPORT_DAYS } from './margin.service.js'
export { MARGIN_GROUPS, type MarginGroup, type MarginReport, type MarginRow } from './reports.schemas.js'
