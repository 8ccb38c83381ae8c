import type { OperatorRole } from '../../db/schema.js'

/** The ladder for reading: each role reads what the ones below it read (docs/design.md §11d). */
export const ROLES: readonly OperatorRole[] = ['viewer', 'support', 'finance', 'admin', 'owner']

/**
 * The areas a write belongs to, and who may write in each: `store` the catalog, pricing, suppliers,
 * resellers, channels and providers; `money` top-ups, reviews and balance adjustments; `care` what
 * support does for a reseller (manual lines, cancel, redelivery); `team` the operators themselves;
 * `alerting` where operator alerts go.
 */
export const AREAS = {
  store: ['admin', 'owner'],
  money: ['finance', 'admin', 'owner'],
  care: ['support', 'admin', 'owner'],
  team: ['owner'],
  // Where operator alerts go (docs/design.md §11e): "the channels an owner sets".
  alerting: ['owner'],
} as const satisfies Record<string, readonly OperatorRole[]>
export type Area = keyof typeof AREAS

/** A route's rule: the lowest role that reads it, or the area it writes in; `self` is any signed-in operator's own. */
export type Access = { read: OperatorRole } | { write: Area } | { self: true }

const read = (role: OperatorRole): Access => ({ read: role })
const write = (area: Area): Access => ({ write: area })

/**
 * Every operator operation (admin API route and console action, by operation id) and who may call
 * it. An operation missing here is refused to everyone: test/roles-sweep.test.ts finds it first.
 */
export const ACCESS: Record<string, Access> = {
  adminOverview: read('viewer'),
  adminListResellers: read('viewer'),
  adminGetReseller: read('viewer'),
  adminListResellerMutations: read('viewer'),
  adminAuditReseller: read('viewer'),
  adminCreateReseller: write('store'),
  adminUpdateReseller: write('store'),
  adminRotateApiKey: write('store'),
  adminAdjustBalance: write('money'),
  adminListDashboardUsers: read('viewer'),
  adminInviteDashboardUser: write('store'),
  adminRemoveDashboardUser: write('store'),
  adminResetDashboardUserSecondFactor: write('store'),
  adminGetWebhook: read('viewer'),
  adminUpdateWebhook: write('store'),
  adminListWebhookDeliveries: read('viewer'),
  adminListStoreWebhookDeliveries: read('viewer'),
  adminRetryWebhookDelivery: write('care'),

  adminListCategories: read('viewer'),
  adminGetCategory: read('viewer'),
  adminCreateCategory: write('store'),
  adminUpdateCategory: write('store'),
  adminDeleteCategory: write('store'),
  adminListProducts: read('viewer'),
  adminGetProduct: read('viewer'),
  adminListProductItems: read('viewer'),
  adminCreateProduct: write('store'),
  adminUpdateProduct: write('store'),
  adminDeleteProduct: write('store'),
  adminListPriceLevels: read('viewer'),
  adminCreatePriceLevel: write('store'),
  adminUpdatePriceLevel: write('store'),
  adminListLevelRules: read('viewer'),
  adminPutLevelRules: write('store'),
  adminGetItemLevelPrices: read('viewer'),
  adminPutItemLevelPrices: write('store'),
  adminListItems: read('viewer'),
  adminGetItem: read('viewer'),
  adminCreateItem: write('store'),
  adminUpdateItem: write('store'),
  adminAddLicenses: write('store'),
  adminGetItemSources: read('viewer'),
  adminPutItemSources: write('store'),

  adminListProviders: read('viewer'),
  adminCreateProvider: write('store'),
  adminUpdateProvider: write('store'),
  adminProviderBalance: read('viewer'),
  adminRefreshProviderBalance: write('store'),
  adminSyncSupplier: write('store'),
  adminImportSupplierProducts: write('store'),
  adminListSupplierProducts: read('viewer'),
  adminListSupplierChanges: read('viewer'),
  adminListHeldPrices: read('viewer'),
  adminApproveHeldPrice: write('store'),
  adminRejectHeldPrice: write('store'),
  adminListPricingRules: read('viewer'),
  adminPutPricingRule: write('store'),
  adminDeletePricingRule: write('store'),

  adminListTransactions: read('viewer'),
  adminGetTransaction: read('viewer'),
  adminSendManualLine: write('care'),
  adminCancelTransaction: write('care'),
  adminListDispatches: read('viewer'),
  adminResolveDispatch: write('store'),
  // Complaints (docs/design.md §14): support answers them; a refund is money.
  adminListComplaints: read('viewer'),
  adminGetComplaint: read('viewer'),
  adminReplyComplaint: write('care'),
  adminResendComplaint: write('care'),
  adminRecheckComplaint: write('care'),
  adminRejectComplaint: write('care'),
  adminRefundComplaint: write('money'),

  adminListChannels: read('viewer'),
  adminCreateChannel: write('store'),
  adminUpdateChannel: write('store'),
  adminSyncChannels: write('store'),
  adminListTopups: read('viewer'),
  adminPayTopup: write('money'),
  adminExpireTopup: write('money'),
  adminResolveTopup: write('money'),
  adminListBankMutations: read('viewer'),
  adminMatchBankMutation: write('money'),
  adminIgnoreBankMutation: write('money'),
  adminImportBankStatement: write('money'),

  // Operator alerts (docs/design.md §11e): everyone sees them; where they go is the owner's to set.
  adminListAlerts: read('viewer'),
  adminGetAlertChannels: read('admin'),
  adminPutAlertChannels: write('alerting'),

  adminMarginReport: read('finance'),
  adminMarginWatch: read('finance'),

  adminListAuditLog: read('admin'),
  adminListOperators: read('admin'),
  adminInviteOperator: write('team'),
  adminUpdateOperator: write('team'),
  adminRemoveOperator: write('team'),
  adminResetOperatorSecondFactor: write('team'),
  adminListOperatorTokens: read('admin'),
  adminRevokeOperatorToken: write('team'),
  adminMe: { self: true },
  adminListMyTokens: { self: true },
  adminCreateMyToken: { self: true },
  adminRevokeMyToken: { self: true },
  // Console-only actions: the first owner (the admin token's form while no operator exists), a new phone.
  consoleCreateFirstOwner: write('team'),
  consoleResetMySecondFactor: { self: true },
}

/** Whether `role` may call the operation (an unknown operation: nobody). */
export function mayCall(role: OperatorRole, operationId: string | undefined): boolean {
  const access = operationId === undefined ? undefined : ACCESS[operationId]
  if (access === undefined) return false
  if ('self' in access) return true
  if ('read' in access) return ROLES.indexOf(role) >= ROLES.indexOf(access.read)
  return (AREAS[access.write] as readonly OperatorRole[]).includes(role)
}
