// The complaints module's public face (docs/design.md §14).
export {
  addResellerMessage,
  getComplaint,
  listComplaints,
  listOrderComplaints,
  openComplaint,
  takesComplaint,
  type ComplaintWindow,
  type ResellerAuthor,
} from './complaints.service.js'
export { complaintView, messageView, type ComplaintMessageView, type ComplaintView } from './complaints.view.js'
// The operator's side (docs/design.md §14): the admin routes, and the services the console and the CLI call.
export { complaintAdminRoutes } from './operator.routes.js'
export {
  getOperatorComplaint,
  listOperatorQueue,
  refundComplaintLine,
  rejectComplaint,
  replyToComplaint,
  type ComplaintListQuery,
  type OperatorComplaintView,
} from './operator.service.js'
export { resendComplaint, type Resend } from './operator-resend.service.js'
export { recheckComplaint } from './operator-recheck.service.js'
export { type OperatorRowView, type Sla } from './operator.view.js'
export { complaintRoutes } from './complaints.routes.js'
export { overdueComplaints } from './operator.queries.js'
