import pg from 'pg'
import type { DatabaseHandle } from './database.js'

/** Listens on a channel of the service's database; returns the function that stops listening. */
export type Listen = (channel: string, onMessage: (payload: string) => void, onLost: () => void) => Promise<() => Promise<void>>

/**
 * Calls onMessage for every NOTIFY on `channel` from any process sharing the database. On
 * PostgreSQL a dedicated connection (DATABASE_LISTEN_URL's when set) listens and reconnects; onLost
 * runs whenever messages may have been missed. Returns the function that stops listening.
 */
export async function listen(
  database: DatabaseHandle,
  channel: string,
  onMessage: (payload: string) => void,
  onLost: () => void,
): Promise<() => Promise<void>> {
  if (database.pglite) return database.pglite.listen(channel, onMessage)
  // Behind a transaction pooler with no direct URL: nothing rings, every listener's owner polls
  // (the workers every second or two, the catalog snapshot each second, the auth cache each 5 s).
  const { listenConfig } = database
  if (!listenConfig) return async () => {}
  let client: pg.Client | undefined
  let stopped = false
  let retry: NodeJS.Timeout | undefined
  const connect = async () => {
    // Keepalive: a listener idles for long, and a silently dropped connection would miss every NOTIFY.
    const next = new pg.Client({ ...listenConfig, keepAlive: true })
    const lost = () => {
      onLost()
      next.end().catch(() => {})
      if (!stopped) retry = setTimeout(() => void connect(), 1000)
    }
    next.on('notification', (message) => message.channel === channel && onMessage(message.payload ?? ''))
    next.on('error', lost)
    try {
      await next.connect()
      await next.query(`LISTEN ${channel}`)
      client = next
    } catch {
      lost()
    }
  }
  await connect()
  return async () => {
    stopped = true
    clearTimeout(retry)
    await client?.end().catch(() => {})
  }
}
