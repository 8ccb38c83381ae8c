// The ref_id namespace that purchases and top-ups share in an account (docs/design.md §7), and the invoices
// both hand out. purchase() checks the same namespace in SQL under the same lock (lock_ref_id).
export { mayBeInvoice, newInvoice, type InvoicePrefix } from './invoice.js'
export { claimTopupRefId, isRefIdHeld } from './refids.queries.js'
export { refIdTaken, refuseBlankRefId } from './refids.service.js'
