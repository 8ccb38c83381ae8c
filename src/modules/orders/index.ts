// orders: orders and their lines: cart line rules (cart-line.sql), their retrieval and lists, sandbox
// orders, manual delivery, and every order and line state change (settlement.sql): checkout (the
// purchase, settlement, operator cancel) and fulfilment change them through these.
export {
  detailByRefReader,
  loadOrderDetails,
  orderDetailFromJson,
  type DetailByRef,
  type OrderDetailView,
  type OrderLineView,
} from './order-detail.view.js'
export { orderDetailJson, type OrderDetailJson } from './order-detail.queries.js'
export { creditRefunds, lockOrder, ORDER_EVENTS, settleOrder, withdrawLine } from './order-state.queries.js'
export { cancellableLines, markCancelRequested } from './operator-changes.queries.js'
export { resendLine, sendManualLine, startCancel } from './operator-changes.service.js'
export { getOperatorOrder, listOperatorOrders } from './operator-reads.service.js'
export { orderRoutes } from './orders.routes.js'
export {
  CreatedOrder,
  type CreatedOrderData,
  ListQuery,
  OrderDetail,
  OrderItem,
  OrderSummary,
  type PurchaseBody,
  RefId,
} from './orders.schemas.js'
export { getTransaction, listPurchases } from './orders.service.js'
export { noteText } from './cart-line.js'

// Statements the plan tests explain (test/*-plans.test.ts), not use cases.
export { findOrdersWithContents } from './order-detail.queries.js'
