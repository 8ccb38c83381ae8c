// topups: payment channels, balance top-ups through a payment gateway (Tripay or the simulator's pay
// page), the gateway's callback, the expiry sweeper and the operator's review.
export { createChannelWithin, findChannel, listChannels, updateChannel } from './channels.service.js'
export { GatewayError, type GatewayChannel, type PaymentGateway } from './payment-gateway.js'
export { createPaymentGateway } from './gateway-selection.js'
export { payPageRoutes } from './pay-page.routes.js'
export { resolveTopup } from './topup-review.service.js'
export { topupAdminRoutes } from './topups-admin.routes.js'
export { topupRoutes } from './topups.routes.js'
export { ChannelBody, ChannelChangesBody, ChannelCodeParam, ReferenceParam, TopupExtras } from './topups.schemas.js'
export { expireTopups, listTopups, payTopup, syncChannels } from './topups.service.js'
export { tripayCallbackRoutes } from './tripay-callback.routes.js'
export { resellerChannel } from './channels.service.js'
export { createTopup } from './topups.service.js'
