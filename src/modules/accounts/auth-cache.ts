import type { AuthenticatedAccount } from './accounts.queries.js'

/**
 * Accounts by API-key hash, for a few seconds: saves a round trip on every reseller request.
 * A change to an account (rotation, suspension, allow-list) is forgotten at once in this process
 * and, through NOTIFY account_changed, in every other; the TTL bounds a missed notification.
 */
export type AuthCache = {
  get(keyHash: string): AuthenticatedAccount | undefined
  set(keyHash: string, account: AuthenticatedAccount): void
  forgetAccount(accountId: number): void
  clear(): void
}

export function createAuthCache(ttlMs: number, maxEntries = 50_000): AuthCache {
  const entries = new Map<string, { account: AuthenticatedAccount; expires: number }>()
  return {
    get(keyHash) {
      const entry = entries.get(keyHash)
      if (!entry) return undefined
      if (entry.expires > Date.now()) return entry.account
      entries.delete(keyHash)
      return undefined
    },
    set(keyHash, account) {
      if (ttlMs <= 0) return
      // A full cache starts over rather than growing: only keys that authenticated are ever stored.
      if (entries.size >= maxEntries) entries.clear()
      entries.set(keyHash, { account, expires: Date.now() + ttlMs })
    },
    forgetAccount(accountId) {
      for (const [hash, entry] of entries) if (entry.account.id === accountId) entries.delete(hash)
    },
    clear() {
      entries.clear()
    },
  }
}
