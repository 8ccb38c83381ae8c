import { AppError } from '../../errors.js'
import type { ComplaintTexts } from './texts-complaints.id.js'

// The complaints service's refusals (AppError with field errors, in the API's English) as the
// dashboard says them: one sentence in the page's language next to the field it is about. A form
// names its line by where it sits, so what the service says of order_item_id is the form's own.

/** The longest message a thread keeps (complaint_messages.body). */
export const MESSAGE_MAX = 2000

/** A message's own faults, before anything is sent. */
export function checkMessage(texts: ComplaintTexts, message: string): Record<string, string> {
  const length = message.trim().length
  if (length === 0) return { message: texts.refusals.messageEmpty }
  if (length > MESSAGE_MAX) return { message: texts.refusals.messageLong(MESSAGE_MAX, length) }
  return {}
}

/** Why a line took no complaint; anything but the service's refusals is rethrown (the error page). */
export function openRefusals(
  error: unknown,
  texts: ComplaintTexts,
  line: { statusLabel: string; open: boolean; days: number },
): Record<string, string> {
  if (!(error instanceof AppError)) throw error
  const r = texts.refusals
  switch (error.code) {
    case 'COMPLAINT_ALREADY_OPEN':
      return { line: r.alreadyOpen }
    case 'COMPLAINT_NOT_ALLOWED':
      return { line: line.open ? r.window(line.days) : r.lineStatus(line.statusLabel) }
    case 'VALIDATION_ERROR':
      return fieldSentences(error, texts)
    default:
      throw error
  }
}

/** Why a reply was refused: a complaint closed meanwhile, or its message. */
export function replyRefusals(error: unknown, texts: ComplaintTexts): Record<string, string> {
  if (!(error instanceof AppError)) throw error
  if (error.code === 'COMPLAINT_NOT_ALLOWED') return { message: texts.refusals.closed }
  if (error.code === 'VALIDATION_ERROR') return fieldSentences(error, texts)
  throw error
}

function fieldSentences(error: AppError, texts: ComplaintTexts): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [field, sentences] of Object.entries(error.fieldErrors ?? {})) {
    if (field === 'order_item_id') out.line = texts.refusals.notALine
    else if (field === 'reason') out.reason = texts.refusals.reason
    else if (field === 'message') out.message = texts.refusals.messageEmpty
    else out.line = sentences.join('; ')
  }
  return out
}
