import { invalidField } from '../../errors.js'

/** The purchase that holds a ref_id in an account, shaped as REF_ID_ALREADY_EXIST shows it; top-ups share the namespace. */
export { findOrderSummary } from './orders.queries.js'

/** A ref_id of nothing but white space names nothing: a 422 on `ref_id`, like any other bad field. */
export function refuseBlankRefId(refId: string): void {
  if (refId.trim() === '') throw invalidField('ref_id', 'must not be blank')
}
