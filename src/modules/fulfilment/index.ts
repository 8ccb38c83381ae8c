// fulfilment: upstream requests (dispatches) to h2h and smm providers: the upstream worker, settlement,
// review, account validation, provider balances, and the operator cancel, which voids unsent requests.
export { fulfillableProcesses, type LineDispatcher } from './dispatch.js'
export { createFulfilment, type Fulfilment } from './fulfilment.service.js'
export { fulfilmentAdminRoutes } from './fulfilment.routes.js'
export { cancelOrder } from './operator-cancel.service.js'
export { hasBalance, providerBalance } from './provider-balance.service.js'
export { loadProviderAccount } from './provider-accounts.js'
export { listDispatches, resolveDispatch } from './review.service.js'
export { validationRoutes } from './validation.routes.js'
