import { sql } from 'kysely'
import { PREPARED, type Database } from '../../db/database.js'
import type { DeliveryStatus } from '../../db/schema.js'
import { orderDetailJson, type OrderDetailJson } from '../orders/index.js'

/** A delivery taken by this process for one attempt; `claims` is this claim's number. */
export type ClaimedDelivery = {
  id: number
  account_id: number
  event: string
  order_id: number | null
  order_line_id: number | null
  webhook_id: string
  claims: number
  failures: number
  /** The account's settings now, read by the claim: where to send, and whether to at all. */
  webhook_enabled: boolean | null
  callback_url: string | null
  secret_enc: string | null
  /** The callback URL's host[:port] (webhook_receiver_host()): what the per-host bound counts by. */
  receiver_host: string | null
  /** The event as the relay built it (docs/design.md §8: once, the same on every attempt); null if relayed before migration 0220. */
  payload: StoredPayload | null
}

/**
 * What a delivery stores of its event: its time and, for an order event, the order's detail as of
 * the relay (licenses still encrypted; order.paid says `paid`); for webhook.test its placeholders;
 * for complaint.updated the complaint as of its change.
 */
export type StoredPayload = {
  timestamp: string
  order?: OrderDetailJson | null
  test?: { ref_id: string; invoice: string }
  /** complaint.updated: the complaint as its change left it (complaint_event_data() in complaints.sql). */
  complaint?: ComplaintEventData
}

/** A complaint.updated event's data, without its event_id (docs/design.md §14). */
export type ComplaintEventData = {
  complaint_id: number
  ref_id: string
  invoice: string
  order_item_id: string
  reason: string
  status: string
  resolution: string | null
  refunded_amount: number
  last_message: { author: 'reseller' | 'operator'; message: string; created_at: string } | null
  updated_at: string
}

/**
 * What this process can take on now: slots in all, per account and per receiver host (accounts
 * may share one), what it has in flight by account and by host, and the lease a claim gets.
 */
export type Capacity = {
  now: Date
  leaseUntil: Date
  free: number
  perReceiver: number
  busy: Map<number, number>
  perHost: number
  hostsBusy: Map<string, number>
}

const busyColumns = <K>(busy: Map<K, number>) => {
  const keys = [...busy.keys()]
  return { keys, counts: keys.map((k) => busy.get(k)!) }
}

// The delivery's webhook-id from its outbox event, the same if a relay lost in a crash runs again
// (migration 0170). A missing salt still relays, under an empty one: nothing in the batch is lost.
const WEBHOOK_ID_SALT = sql`coalesce((SELECT value FROM app_meta WHERE key = 'webhook_id_salt'), '')`

/**
 * Turns committed outbox rows into deliveries (one per event) for accounts with webhooks on and
 * deletes the batch, in one statement (SKIP LOCKED: processes take disjoint batches); a trigger on
 * the delete counts the batch on the leaderboard. Each event's payload is built here, once: its
 * order's detail, read once per outbox row, is stored on each delivery, with `paid` on order.paid
 * whatever the order went on to (the next event carries the newer state). Deliveries that fit this
 * process's capacity are created already claimed, sparing a fresh event a claim.
 * `relayed` counts outbox rows, `created` deliveries. Rows go by ctid: a join on id let stale
 * statistics loop over the whole outbox per row.
 */
export async function relayOutbox(
  db: Database,
  limit: number,
  c: Capacity,
): Promise<{ relayed: number; created: number; claimed: ClaimedDelivery[] }> {
  const busy = busyColumns(c.busy)
  const hosts = busyColumns(c.hostsBusy)
  const { rows } = await sql<ClaimedDelivery & { relayed: number; created: number }>`${sql.raw(PREPARED)}
    WITH batch AS (
      SELECT ctid, id, account_id, events, order_id, order_line_id, complaint_id, payload, created_at FROM outbox_events ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED
    ), relayed AS (
      DELETE FROM outbox_events WHERE ctid = ANY (ARRAY(SELECT ctid FROM batch)) RETURNING id
    ), wanted AS (
      SELECT b.id, e.n, e.event, b.account_id, b.order_id, b.order_line_id, b.complaint_id, b.payload AS complaint, b.created_at,
             webhook_receiver_host(s.callback_url) AS host,
             -- The order's detail, read once per outbox row (CASE runs the subquery only there).
             CASE WHEN e.n = 1 AND b.order_id IS NOT NULL AND b.complaint_id IS NULL THEN ${sql.raw(orderDetailJson('b.order_id'))}::jsonb END AS first_detail,
             row_number() OVER (PARTITION BY b.account_id ORDER BY b.id, e.n) + coalesce(busy.in_flight, 0) <= ${c.perReceiver}::int AS room
        FROM batch b JOIN webhook_settings s ON s.account_id = b.account_id AND s.webhook_enabled
        CROSS JOIN LATERAL unnest(b.events) WITH ORDINALITY AS e(event, n)
        LEFT JOIN unnest(${busy.keys}::bigint[], ${busy.counts}::int[]) AS busy(account_id, in_flight) ON busy.account_id = b.account_id
    ), hosted AS (
      SELECT w.*, w.room AND (w.host IS NULL
               OR sum(w.room::int) OVER (PARTITION BY w.host ORDER BY w.id, w.n) + coalesce(h.in_flight, 0) <= ${c.perHost}::int) AS fits
        FROM wanted w LEFT JOIN unnest(${hosts.keys}::text[], ${hosts.counts}::int[]) AS h(host, in_flight) ON h.host = w.host
    ), placed AS (
      SELECT *, fits AND sum(fits::int) OVER (ORDER BY id, n) <= ${c.free}::int AS taken,
             first_value(first_detail) OVER (PARTITION BY id ORDER BY n) AS detail
        FROM hosted
    ), created AS (
      INSERT INTO webhook_deliveries (account_id, outbox_event_id, event, order_id, order_line_id, complaint_id, webhook_id, claims,
                                      next_attempt_at, payload)
      SELECT p.account_id, p.id, p.event, p.order_id, p.order_line_id, p.complaint_id, 'evt_' || md5(${WEBHOOK_ID_SALT} || ':' || p.id || ':' || p.n),
             CASE WHEN p.taken THEN 1 ELSE 0 END, CASE WHEN p.taken THEN ${c.leaseUntil}::timestamptz ELSE ${c.now}::timestamptz END,
             CASE WHEN p.complaint_id IS NOT NULL THEN jsonb_build_object('timestamp', p.created_at, 'complaint', p.complaint)
                  ELSE jsonb_build_object('timestamp', p.created_at, 'order',
                         CASE WHEN p.event = 'order.paid' THEN jsonb_set(p.detail, '{order,status}', '"paid"') ELSE p.detail END) END
        FROM placed p ORDER BY p.id, p.n
      RETURNING id, account_id, event, order_id, order_line_id, webhook_id, claims, failures, payload
    )
    SELECT n.relayed, n.created, d.*, s.webhook_enabled, s.callback_url, s.secret_enc, webhook_receiver_host(s.callback_url) AS receiver_host
      FROM (SELECT (SELECT count(*) FROM relayed)::int AS relayed, (SELECT count(*) FROM created)::int AS created) n
      LEFT JOIN (created d JOIN webhook_settings s ON s.account_id = d.account_id) ON d.claims = 1
     ORDER BY d.id`.execute(db)
  return {
    relayed: rows[0].relayed,
    created: rows[0].created,
    claimed: rows.filter((r) => r.id !== null).map(({ relayed: _r, created: _c, ...d }) => d),
  }
}

/**
 * Reclaims the space of relayed outbox rows. A queue's dead rows stay in its index until a vacuum,
 * and the relay would walk them all on every pass; autovacuum may lag far behind (or be off).
 * SKIP_LOCKED: a vacuum already under way (another worker's) is enough. TRUNCATE false: giving
 * pages back takes a lock that would stop purchases writing to the outbox meanwhile.
 */
export async function reclaimOutbox(db: Database): Promise<void> {
  await sql`VACUUM (SKIP_LOCKED, TRUNCATE false) outbox_events`.execute(db)
}

// Deliveries at their first attempt or in the fast retries (+1 to +8 s), and those in the slow tail
// (failures ≥ 5: +1 min to +6 h), each under an index of its own (migration 0200). Only the first kind
// is walked by account: receivers dead for hours must not cost every claim a probe per account.
const FAST = sql`(status = 'pending' OR (status = 'retrying' AND failures < 5))`
const SLOW = sql`status = 'retrying' AND failures >= 5`

// The accounts with fast deliveries, one index probe each (a loose index scan).
const FAST_ACCOUNTS = sql`fast_accounts AS (
      (SELECT account_id FROM webhook_deliveries WHERE ${FAST} ORDER BY account_id LIMIT 1)
      UNION ALL
      SELECT (SELECT d.account_id FROM webhook_deliveries d WHERE ${FAST} AND d.account_id > o.account_id ORDER BY d.account_id LIMIT 1)
        FROM fast_accounts o WHERE o.account_id IS NOT NULL
    )`

/**
 * Claims due deliveries: at most `free` in all; per account no more than `perReceiver` minus what
 * this process already has in flight for it, and per receiver host no more than `perHost` minus
 * its in-flight count, so neither one slow receiver nor one slow host that many accounts share
 * can take every slot. Within a host and in all, the room goes oldest due first: under a load the
 * bounds hold back, no account's deliveries wait behind newer ones of others. The claim moves next_attempt_at to `leaseUntil`: if this
 * process dies mid-attempt, another takes the delivery up again then. Autocommit: no lock
 * outlives the statement, and only the rows claimed are locked.
 */
export async function claimDue(db: Database, q: Capacity): Promise<{ claimed: ClaimedDelivery[]; wanted: number }> {
  if (q.free <= 0) return { claimed: [], wanted: 0 }
  const busy = busyColumns(q.busy)
  const hosts = busyColumns(q.hostsBusy)
  const { rows } = await sql<ClaimedDelivery & { wanted: number }>`${sql.raw(PREPARED)}
    WITH RECURSIVE ${FAST_ACCOUNTS}, open_accounts AS (
      SELECT account_id FROM fast_accounts WHERE account_id IS NOT NULL
      UNION
      -- Slow-tail deliveries come due a few at a time: the accounts of the oldest due ones join the walk.
      SELECT account_id FROM (
        SELECT account_id FROM webhook_deliveries WHERE ${SLOW} AND next_attempt_at <= ${q.now} ORDER BY next_attempt_at, id LIMIT ${q.free}
      ) slow_due
    ), waiting AS (
      SELECT o.account_id, webhook_receiver_host(s.callback_url) AS host, n.due, n.oldest
        FROM open_accounts o
        LEFT JOIN webhook_settings s ON s.account_id = o.account_id
        LEFT JOIN unnest(${busy.keys}::bigint[], ${busy.counts}::int[]) AS b(account_id, in_flight) ON b.account_id = o.account_id
        CROSS JOIN LATERAL (
          SELECT count(*)::int AS due, min(up_to_room.next_attempt_at) AS oldest FROM (
            SELECT d.next_attempt_at FROM webhook_deliveries d
             WHERE d.account_id = o.account_id AND d.status IN ('pending', 'retrying') AND d.next_attempt_at <= ${q.now}
             ORDER BY d.next_attempt_at, d.id LIMIT greatest(${q.perReceiver}::int - coalesce(b.in_flight, 0), 0)
          ) up_to_room
        ) n
       WHERE n.due > 0
    ), quota AS (
      SELECT w.account_id, w.oldest, CASE WHEN w.host IS NULL THEN w.due ELSE least(w.due, greatest(0, ${q.perHost}::int - coalesce(h.in_flight, 0)
               - coalesce(sum(w.due) OVER (PARTITION BY w.host ORDER BY w.oldest, w.account_id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0))) END AS take
        FROM waiting w LEFT JOIN unnest(${hosts.keys}::text[], ${hosts.counts}::int[]) AS h(host, in_flight) ON h.host = w.host
    ), picked AS (
      SELECT due.id, q.account_id FROM quota q CROSS JOIN LATERAL (
        SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
         WHERE d.account_id = q.account_id AND d.status IN ('pending', 'retrying') AND d.next_attempt_at <= ${q.now}
         ORDER BY d.next_attempt_at, d.id LIMIT q.take
         FOR UPDATE SKIP LOCKED
      ) due
      WHERE q.take > 0
      ORDER BY due.next_attempt_at, due.id
      LIMIT ${q.free}
    ), updated AS (
      UPDATE webhook_deliveries d SET claims = d.claims + 1, next_attempt_at = ${q.leaseUntil}
        FROM picked LEFT JOIN webhook_settings s ON s.account_id = picked.account_id
       WHERE d.id = picked.id
      RETURNING d.id, d.account_id, d.event, d.order_id, d.order_line_id, d.webhook_id, d.claims, d.failures, d.payload, s.webhook_enabled,
                s.callback_url, s.secret_enc, webhook_receiver_host(s.callback_url) AS receiver_host
    )
    SELECT (SELECT coalesce(sum(due), 0) FROM waiting)::int AS wanted, u.* FROM (SELECT 1) one LEFT JOIN updated u ON true`.execute(db)
  return {
    claimed: rows.filter((r) => r.id !== null).map(({ wanted: _w, ...d }) => d),
    wanted: rows[0]?.wanted ?? 0,
  }
}

/**
 * A stopping worker's claims, handed back: due now for any worker, rather than when the lease
 * lapses. Each only while it is still that claim; the claim number moves on, so the abandoned
 * attempt's record, should it still land, joins the log without moving the schedule.
 */
export async function releaseClaims(db: Database, claims: Map<number, number>): Promise<number> {
  if (claims.size === 0) return 0
  // 'due' wakes the other workers to claim at once, as a redelivery does.
  const { rows } = await sql<{ released: number }>`
    WITH released AS (
      UPDATE webhook_deliveries d SET claims = d.claims + 1, next_attempt_at = now()
        FROM unnest(${[...claims.keys()]}::bigint[], ${[...claims.values()]}::int[]) AS r(id, claim)
       WHERE d.id = r.id AND d.claims = r.claim AND d.status IN ('pending', 'retrying')
      RETURNING d.id
    )
    SELECT (SELECT count(*) FROM released)::int AS released, pg_notify('outbox', 'due')`.execute(db)
  return rows[0].released
}

export type AttemptRecord = {
  deliveryId: number
  claim: number
  attemptedAt: Date
  statusCode: number | null
  durationMs: number
  error: string | null
  status: DeliveryStatus
  failures: number
  nextAttemptAt: Date | null
}

/**
 * Records attempts and their consequences in one statement, one row update per attempt: the
 * attempt joins its delivery's log either way, while status and schedule only move if the row is
 * still that attempt's claim (a redelivery requested meanwhile wins).
 */
export async function recordAttempts(db: Database, records: AttemptRecord[]): Promise<void> {
  if (records.length === 0) return
  const column = <T>(pick: (r: AttemptRecord) => T) => records.map(pick)
  await sql`${sql.raw(PREPARED)}
    WITH r AS (
      SELECT * FROM unnest(
        ${column((r) => r.deliveryId)}::bigint[], ${column((r) => r.claim)}::int[], ${column((r) => r.attemptedAt.toISOString())}::text[],
        ${column((r) => r.statusCode)}::int[], ${column((r) => r.durationMs)}::int[], ${column((r) => r.error)}::text[],
        ${column((r) => r.status)}::text[], ${column((r) => r.failures)}::int[], ${column((r) => r.nextAttemptAt?.toISOString() ?? null)}::timestamptz[]
      ) AS r(delivery_id, claim, attempted_at, status_code, duration_ms, error, status, failures, next_attempt_at)
    )
    UPDATE webhook_deliveries d
       SET attempts = d.attempts || jsonb_build_array(jsonb_build_object(
             'attempted_at', r.attempted_at, 'status_code', r.status_code, 'duration_ms', r.duration_ms, 'error', r.error)),
           status = CASE WHEN d.claims = r.claim THEN r.status ELSE d.status END,
           failures = CASE WHEN d.claims = r.claim THEN r.failures ELSE d.failures END,
           next_attempt_at = CASE WHEN d.claims = r.claim THEN r.next_attempt_at ELSE d.next_attempt_at END,
           delivered_at = CASE WHEN d.claims = r.claim AND r.status = 'delivered' THEN r.attempted_at::timestamptz ELSE d.delivered_at END
      FROM r WHERE d.id = r.delivery_id`.execute(db)
}

/** When the next open delivery falls due (leases included), to sleep exactly until then. */
export async function earliestDue(db: Database): Promise<Date | null> {
  // Each fast account's earliest from the due index, one probe each; the slow tail's from its own.
  const { rows } = await sql<{ at: Date | null }>`${sql.raw(PREPARED)}
    WITH RECURSIVE ${FAST_ACCOUNTS}
    SELECT least(
      (SELECT min(first.next_attempt_at) FROM fast_accounts o CROSS JOIN LATERAL (
        SELECT d.next_attempt_at FROM webhook_deliveries d
         WHERE d.account_id = o.account_id AND d.status IN ('pending', 'retrying') ORDER BY d.next_attempt_at LIMIT 1
      ) first),
      (SELECT next_attempt_at FROM webhook_deliveries WHERE ${SLOW} ORDER BY next_attempt_at, id LIMIT 1)
    ) AS at`.execute(db)
  return rows[0]?.at ? new Date(rows[0].at) : null
}
