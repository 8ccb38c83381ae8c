// dashboard: the resellers' own web dashboard (docs/design.md §13) and the operator's routes for its users.
export { dashboardPlugin } from './dashboard.plugin.js'
export { dashboardUserAdminRoutes } from './users-admin.routes.js'
export { inviteUrl } from './users-admin.routes.js'
export { inviteUser, listUsers, removeUser, ROLES } from './users.service.js'
