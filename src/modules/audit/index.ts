// audit: the append-only log of operator writes (docs/design.md §11d). audit.sql holds its triggers' function;
// the acting operator reaches them through db/acting.ts. Its route lists the log (JSON or CSV); the console shows it.
export { auditRoutes, sendAuditCsv } from './audit.routes.js'
export { CSV_MAX_ROWS } from './audit.schemas.js'
export { auditDayFilter, listAuditLog, type AuditFilter, type AuditFilterText } from './audit.service.js'
