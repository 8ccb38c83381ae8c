// The complaints module's public face (docs/design.md §14).
export {
  addResellerMessage,
  getComplaint,
  listComplaints,
  listOrderComplaints,
  openComplaint,
  type ComplaintWindow,
  type ResellerAuthor,
} from './complaints.service.js'
export { complaintView, messageView, type ComplaintMessageView, type ComplaintView } from './complaints.view.js'
export { complaintRoutes } from './complaints.routes.js'
