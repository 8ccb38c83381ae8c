// bills: postpaid bills (docs/design.md §5c), asked for (inq-pasca) and paid as a purchase of their item;
// owns bill_inquiries (bills.sql: the functions purchase() prices and links a bill's line with).
export { billRoutes } from './bills.routes.js'
export { pruneUnpaidInquiries } from './retention.queries.js'
