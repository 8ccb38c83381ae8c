/**
 * Serialized pages of accounts' unfiltered ledgers (`GET /balance/mutations`), each stored with
 * the account's `ledger_count` read before its query. Entries are never changed or removed and
 * every new one bumps the count in its own transaction, so a page stored under the count a poll
 * reads now is that poll's answer (or one a few entries newer): a bot's poll that finds nothing
 * new costs a one-row read instead of the page's query, decoding and serialization.
 */
export type LedgerPages = {
  /** The page stored for `key` if it was read at `count`. */
  get(key: string, count: number): string | undefined
  set(key: string, count: number, body: string): void
}

// A page of 20 entries is ≈ 5 kB: at most ≈ 10 MB per process.
const PAGES_KEPT = 2_000

export function createLedgerPages(kept = PAGES_KEPT): LedgerPages {
  const pages = new Map<string, { count: number; body: string }>()
  return {
    get(key, count) {
      const page = pages.get(key)
      return page?.count === count ? page.body : undefined
    },
    set(key, count, body) {
      // Oldest first out: a Map iterates in insertion order, and a renewed page is inserted anew.
      pages.delete(key)
      if (pages.size >= kept) pages.delete(pages.keys().next().value!)
      pages.set(key, { count, body })
    },
  }
}
