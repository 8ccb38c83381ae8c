// ledger: the balance and its mutations; every balance change is one post_ledger_entry() (ledger.sql).
export { ledgerRoutes } from './ledger.routes.js'
export { LedgerAudit, MutationPage, MutationsQuery } from './ledger.schemas.js'
export {
  auditLedger,
  auditTimeLimitMs,
  creditBalance,
  getBalance,
  listMutations,
  listOrderEntries,
  postLedgerEntry,
  type LedgerPosting,
} from './ledger.service.js'
export { MAX_MONEY } from './money.js'
