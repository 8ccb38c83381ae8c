import pg from 'pg'
import type { PreparedStatement } from './database.js'
import { withFreshPlan } from './statement-names.js'
import { isDatabaseUnavailable } from './unavailable.js'

type Lane = { client?: Promise<pg.Client>; open?: pg.Client; inFlight: number; corked: boolean; heardAt: number }
type Stream = { cork(): void; uncork(): void; destroy(): void }
type Connection = { stream: Stream; on(event: 'readyForQuery', listener: () => void): void }
const connectionOf = (client: pg.Client) => (client as unknown as { connection: Connection }).connection

/** Takes the lane's connection out of use if it is still this one; true when it was. */
function forget(lane: Lane, connecting: Promise<pg.Client>): boolean {
  if (lane.client !== connecting) return false
  lane.client = undefined
  lane.open = undefined
  return true
}

/**
 * Single statements outside any transaction (purchase(), auth, polls) share a few pipelined
 * connections: the calls of one event-loop turn leave in one write and the server reads them in one
 * wake-up, each still its own implicit transaction (a Sync apiece), so one's failure never touches
 * another. Safe because none of them waits on the client: a call queued behind a lock wait is delayed,
 * never deadlocked, and the next call goes to the lane with the fewest in flight. Measured: the API's
 * and PostgreSQL's CPU per purchase both fall, purchases/s +5–20 % (bench:purchase-cost).
 * A lost connection fails the calls sent on it (503); the lane's next call reconnects.
 * `query_timeout` becomes a bound on silence: a call's own timer would count the calls queued ahead
 * of it, and its firing would end the connection under all of them. A lane with calls in flight
 * that hears nothing for that long is lost; each statement's statement_timeout keeps a sound one talking.
 */
export function pipelinedStatements(
  config: pg.ClientConfig,
  lanes: number,
  named = true,
): { run: PreparedStatement; close(): Promise<void> } {
  const { query_timeout: silenceMs, ...clientConfig } = config
  const all: Lane[] = Array.from({ length: lanes }, () => ({ inFlight: 0, corked: false, heardAt: 0 }))
  let closed = false

  const watchdog =
    silenceMs &&
    setInterval(
      () => {
        const now = Date.now()
        for (const lane of all)
          if (lane.open && lane.inFlight > 0 && now - lane.heardAt > silenceMs) connectionOf(lane.open).stream.destroy()
      },
      Math.max(50, silenceMs / 4),
    ).unref()

  const connect = (lane: Lane) => {
    const client = new pg.Client({ ...clientConfig, pipeline: true })
    const connecting = client.connect().then(() => {
      connectionOf(client).on('readyForQuery', () => (lane.heardAt = Date.now()))
      if (lane.client === connecting) lane.open = client
      return client
    })
    const lost = () => forget(lane, connecting)
    // A connection error fails the calls in flight; without a listener it would end the process.
    client.on('error', lost)
    client.on('end', lost)
    connecting.catch(lost)
    lane.client = connecting
    return connecting
  }

  // Corked on the turn's first call, uncorked once the turn is over: its calls leave in one write.
  const cork = (lane: Lane, client: pg.Client) => {
    if (lane.corked) return
    const stream = connectionOf(client).stream
    stream.cork()
    lane.corked = true
    setImmediate(() => {
      lane.corked = false
      stream.uncork()
    })
  }

  const runOnce = async <R>(name: string, text: string, values: unknown[]): Promise<R[]> => {
    // Like a pool after end(): a call after close is the caller's error, not a lost database.
    if (closed) throw new Error('the pipelined connections are closed')
    const lane = all.reduce((least, l) => (l.inFlight < least.inFlight ? l : least))
    // An idle lane was waiting on no one: its silence starts now.
    if (lane.inFlight++ === 0) lane.heardAt = Date.now()
    const connecting = lane.client ?? connect(lane)
    try {
      const client = await connecting
      cork(lane, client)
      return (await client.query<R & pg.QueryResultRow>({ name: named ? name : undefined, text, values })).rows
    } catch (error) {
      // The server may report a terminated session before its socket closes: no later call may follow it.
      // A statement timeout (57014) leaves the connection and the calls behind it sound.
      if (isDatabaseUnavailable(error) && (error as { code?: string }).code !== '57014' && forget(lane, connecting))
        void connecting.then((client) => client.end()).catch(() => undefined)
      throw error
    } finally {
      lane.inFlight--
    }
  }

  const run = <R>(name: string, text: string, values: unknown[]) => withFreshPlan(name, (current) => runOnce<R>(current, text, values))

  // Calls in flight finish first; the watchdog stays on until then, for a server that stopped answering.
  const close = async () => {
    closed = true
    await Promise.all(
      all.map(async ({ client }) => {
        const open = await client?.catch(() => undefined)
        await open?.end().catch(() => undefined)
      }),
    )
    if (watchdog) clearInterval(watchdog)
  }
  return { run, close }
}
