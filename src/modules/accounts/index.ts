// accounts: resellers' accounts, API keys, allow-lists, suspension, and the per-process auth cache.
export { forgettingAccount, watchAccountChanges } from './account-changes.js'
export { accountCountersReader, type AccountCounters, type AccountCountersReader } from './account-counters.js'
export {
  adjustBalance,
  adjustBalanceWithin,
  createAccount,
  createAccountWithin,
  findAccountByKeyHash,
  getAccount,
  listAccounts,
  rotateApiKey,
  updateAccount,
  type AccountChanges,
  type AuthenticatedAccount,
} from './accounts.service.js'
export { createAuthCache, type AuthCache } from './auth-cache.js'
