// checkout: the flows that cross modules, as Medusa's workflows are the only code that spans
// modules: the purchase (purchase.sql's purchase(), with its line checks in purchase-line.sql), a
// bill's payment, recording providers' final answers with their settlement and failover
// (settlement.sql, settlement.ts), the operator's cancel and a review's resolution. It calls orders,
// fulfilment, bills, catalog, locks and ledger; none of them imports it. Routes of other modules
// reach it through AppContext's `checkout` (src/context.ts wires it), so they do not import it either.
import { resolveDispatch } from './dispatch-review.service.js'
import { cancelOrder } from './operator-cancel.service.js'
import { payBill, type PaymentDeps } from './payment.service.js'
import { createPurchase } from './purchase.service.js'
import { recordFinal } from './settlement.js'

export { cancelOrder, createPurchase, payBill, recordFinal, resolveDispatch, type PaymentDeps }

/** What routes of orders, bills and fulfilment call, as AppContext's `checkout`. */
export const checkout = { createPurchase, payBill, cancelOrder, resolveDispatch, recordFinal }
export type Checkout = typeof checkout

// Statements the plan tests explain (test/*-plans.test.ts), not use cases.
export { callPurchase } from './purchase.js'
