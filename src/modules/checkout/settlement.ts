import { sql } from 'kysely'
import { retrying, type Database, type Trx } from '../../db/database.js'
import { raisingAppErrors } from '../../db/functions/app-errors.js'
import type { Dispatch, DispatchStatus } from '../../db/schema.js'
import type { FinalAnswer } from '../fulfilment/index.js'

/**
 * Closes a line once every request of it is final (dispatch_is_final(), fulfilment/dispatch-states.sql):
 * `refunded` when nothing was delivered, else `delivered` with the failed requests' (and an smm
 * Partial's) money as its refund (close_upstream_line, orders/settlement.sql). The conditional update
 * wins once; the caller credits the returned refund after its item rows (creditRefunds).
 */
export async function settleLine(trx: Trx, lineId: number): Promise<{ lineId: number; amount: number } | undefined> {
  const { rows } = await sql<{ amount: string | null }>`
    SELECT close_upstream_line(${lineId}::bigint, sum(refund_amount)::bigint) AS amount FROM dispatches
     WHERE order_line_id = ${lineId}::bigint
    HAVING count(*) > 0 AND bool_and(dispatch_is_final(status))`.execute(trx)
  const amount = rows[0]?.amount
  return amount === null || amount === undefined ? undefined : { lineId, amount: Number(amount) }
}

/** One answer as record_upstream_answers() reads it (settlement.sql). */
type AnswerRow = {
  id: number
  from_states: DispatchStatus[]
  status: FinalAnswer['status']
  refund: FinalAnswer['refund']
  message: string
  sn: string | null
  upstream_status: string | null
  start_count: number | null
  remains: number | null
  upstream_order_id: string | null
  cost: number | null
  failover?: FinalAnswer['failover']
}

const answerRow = (id: number, a: FinalAnswer, from: DispatchStatus[]): AnswerRow => ({
  id,
  from_states: from,
  status: a.status,
  refund: a.refund,
  message: a.message,
  sn: a.sn ?? null,
  upstream_status: a.upstreamStatus ?? null,
  start_count: a.startCount ?? null,
  remains: a.remains ?? null,
  upstream_order_id: a.upstreamOrderId ?? null,
  cost: a.cost ?? null,
  ...(a.failover && { failover: a.failover }),
})

/** Records answers in one statement, one commit (retried on a deadlock): the ids recorded. */
async function recordAnswers(db: Database, answers: AnswerRow[]): Promise<Set<number>> {
  const { rows } = await retrying(() =>
    raisingAppErrors(sql<{ id: string }>`SELECT record_upstream_answers(${JSON.stringify(answers)}::jsonb) AS id`.execute(db)),
  )
  return new Set(rows.map((r) => Number(r.id)))
}

// Answers arriving this close together are recorded in one statement: one commit for many, the
// rows of each order and account locked once. A few batches may be out at once (each a connection).
const GATHER_MS = 2
const BATCH_MAX = 100
const BATCHES_AT_ONCE = 4

type Waiting = { row: AnswerRow; resolve(recorded: boolean): void; reject(error: unknown): void }
type Gathering = { waiting: Waiting[]; timer?: NodeJS.Timeout; out: number }
// Per database handle: what its callers' answers wait in for their batch (a few milliseconds).
const gatherings = new WeakMap<Database, Gathering>()

function schedule(db: Database, g: Gathering) {
  if (g.timer || g.waiting.length === 0 || g.out >= BATCHES_AT_ONCE) return
  g.timer = setTimeout(
    () => {
      g.timer = undefined
      void flush(db, g)
    },
    g.waiting.length >= BATCH_MAX ? 0 : GATHER_MS,
  )
}

async function flush(db: Database, g: Gathering) {
  // One answer per request in a batch: a second one waits for the next, judged after the first.
  const batch: Waiting[] = []
  const rest: Waiting[] = []
  const ids = new Set<number>()
  for (const w of g.waiting) {
    if (batch.length < BATCH_MAX && !ids.has(w.row.id)) {
      ids.add(w.row.id)
      batch.push(w)
    } else rest.push(w)
  }
  g.waiting = rest
  g.out++
  schedule(db, g)
  try {
    const recorded = await recordAnswers(
      db,
      batch.map((w) => w.row),
    )
    for (const w of batch) w.resolve(recorded.has(w.row.id))
  } catch (error) {
    // One answer that cannot be recorded (a refund past money_max()) does not sink the others.
    if (batch.length === 1) batch[0].reject(error)
    else
      await Promise.all(
        batch.map((w) =>
          recordAnswers(db, [w.row]).then(
            (recorded) => w.resolve(recorded.has(w.row.id)),
            (err: unknown) => w.reject(err),
          ),
        ),
      )
  } finally {
    g.out--
    schedule(db, g)
  }
}

/**
 * Records a provider's final answer: the dispatch if it is still in one of `from`, then its line,
 * the refund and the order's status, with their events (record_upstream_answers), in one statement
 * with the answers that arrive within GATHER_MS of it. False when the row had already moved on
 * (another worker, the operator).
 */
export function recordFinal(
  db: Database,
  d: Pick<Dispatch, 'id' | 'order_id' | 'order_line_id'>,
  answer: FinalAnswer,
  from: DispatchStatus[],
): Promise<boolean> {
  let g = gatherings.get(db)
  if (!g) gatherings.set(db, (g = { waiting: [], out: 0 }))
  const gathering = g
  return new Promise<boolean>((resolve, reject) => {
    gathering.waiting.push({ row: answerRow(d.id, answer, from), resolve, reject })
    if (gathering.waiting.length >= BATCH_MAX && gathering.timer) {
      clearTimeout(gathering.timer)
      gathering.timer = undefined
    }
    schedule(db, gathering)
  })
}
