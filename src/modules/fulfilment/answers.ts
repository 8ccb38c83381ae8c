import type { Database } from '../../db/database.js'
import type { Dispatch, DispatchStatus } from '../../db/schema.js'

export type FinalAnswer = {
  status: 'completed' | 'failed'
  /** full: the request's whole amount back; partial: floor(amount × remains / quantity) (smm Partial). */
  refund: 'none' | 'full' | 'partial'
  message: string
  sn?: string | null
  upstreamStatus?: string | null
  startCount?: number | null
  remains?: number | null
  upstreamOrderId?: string
  /** What the provider says it charged for the request: it becomes the request's cost (losses are measured against it). */
  cost?: number
  /**
   * A definite failure before anything was delivered: the request goes to its item's next serving
   * source when there is one; else `or_refund` records this answer, `or_keep` nothing (false).
   */
  failover?: 'or_refund' | 'or_keep'
}

/**
 * Records a provider's final answer (false when the request had already moved on): checkout's
 * recordFinal, which settles the line and fails over. Given to createFulfilment and the review, so
 * fulfilment never imports the flow that calls its own planning.
 */
export type RecordFinal = (
  db: Database,
  d: Pick<Dispatch, 'id' | 'order_id' | 'order_line_id'>,
  answer: FinalAnswer,
  from: DispatchStatus[],
) => Promise<boolean>
