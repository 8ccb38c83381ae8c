// fulfilment: upstream requests (dispatches) to h2h and smm providers: their planning
// (dispatch-plan.sql), the upstream worker's claims and sends, review, account validation, provider
// balances, and voiding unsent requests. A final answer is recorded by the RecordFinal it is given
// (checkout's recordFinal: settlement and failover).
export { fulfillableProcesses, type LineDispatcher } from './dispatch.js'
export { createFulfilment, type Fulfilment } from './fulfilment.service.js'
export { fulfilmentAdminRoutes } from './fulfilment.routes.js'
export { type FinalAnswer, type RecordFinal } from './answers.js'
export { hasBalance, providerBalance, readDueBalances, refreshProviderBalance } from './provider-balance.service.js'
export { loadProviderAccount } from './provider-accounts.js'
export { listDispatches, resolveDispatch, type Resolution } from './review.service.js'
export { withdrawUnsentRequests } from './unsent-requests.queries.js'
export { validationRoutes } from './validation.routes.js'
