import type { FastifyReply } from 'fastify'

/**
 * Serialized pages of the lists bots poll (an account's unfiltered ledger and orders), each kept
 * with the version of the list it was read at: counters that every change to the list moves in its
 * own transaction (the account row's ledger_count; its orders_count and account_order_settles). The version
 * is read before the page, so a kept page is never older than the version it is kept under: a poll
 * that reads the same version is answered with it (or with a page a few changes newer), and a
 * poll that finds nothing new costs a one-row read instead of the page's query and serialization.
 */
export type KeptPages = {
  /** The page kept for `key` if it was read at `version`. */
  get(key: string, version: string): string | undefined
  set(key: string, version: string, body: string): void
}

// What a process keeps at most, in characters (≈ bytes of JSON): ≈ 1,600 pages of 20 rows, 300 of 100.
const BYTES_KEPT = 8_000_000

export function createKeptPages(bytesKept = BYTES_KEPT): KeptPages {
  const pages = new Map<string, { version: string; body: string }>()
  let bytes = 0
  const drop = (key: string) => {
    bytes -= pages.get(key)?.body.length ?? 0
    pages.delete(key)
  }
  return {
    get(key, version) {
      const page = pages.get(key)
      return page?.version === version ? page.body : undefined
    },
    set(key, version, body) {
      drop(key)
      if (body.length > bytesKept) return
      // Oldest first out: a Map iterates in insertion order, and a renewed page is inserted anew.
      while (bytes + body.length > bytesKept) drop(pages.keys().next().value!)
      pages.set(key, { version, body })
      bytes += body.length
    },
  }
}

/** Which page of which account's list: the key a page is kept under. */
export type ListPage = { list: 'ledger' | 'orders'; accountId: number; page: number; per_page: number; cursor?: string }

/**
 * Answers with the page kept for `at` at `version`, or reads, serializes (by the route's own
 * serializer: the bytes are what the route would send) and keeps it. A string is sent as it is.
 */
export async function sendKeptPage(pages: KeptPages, reply: FastifyReply, at: ListPage, version: string, read: () => Promise<unknown>) {
  const key = `${at.list}:${at.accountId}:${at.page}:${at.per_page}:${at.cursor ?? ''}`
  let body = pages.get(key, version)
  if (body === undefined) pages.set(key, version, (body = reply.serialize(await read()) as string))
  return reply.type('application/json; charset=utf-8').send(body as never)
}
