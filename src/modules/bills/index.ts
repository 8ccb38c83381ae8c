// bills: postpaid bills (docs/design.md §5c), asked for (inq-pasca) and paid as a purchase of their item
// (checkout's payBill);
// owns bill_inquiries (bills.sql: the functions purchase() prices and links a bill's line with).
export { billRoutes } from './bills.routes.js'
export { pruneUnpaidInquiries } from './retention.queries.js'
// The payment (checkout's payBill) asks and reads inquiries with these.
export { findInquiry } from './bills.queries.js'
export { BillPaymentBody } from './bills.schemas.js'
export { askBill, type InquiryDeps } from './inquiry.service.js'
