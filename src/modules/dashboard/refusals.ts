import type { FastifyReply } from 'fastify'
import { AppError } from '../../errors.js'
import { codesOf, saidFieldErrors, type RefusalRule, type RefusalTable } from '../../http/web-refusals.js'
import type { Texts } from './texts.id.js'

// Every dashboard form's refusal, one way (docs/design.md §13): the form comes back as itself with what was
// typed, each field's sentence next to it in the page's language, amounts as Rupiah, no codes or field
// keys. The table and the rules both areas share are http/web-refusals.ts; here are the dashboard's own.

/** A form sent back: what was typed (by field name) and one sentence per field. */
export type SentBack = { values: Record<string, string>; errors: Record<string, string> }

/**
 * What a sentence may need to be said well: the form's channels by code, the list it checked
 * (ip_allowlist.3), and on a complaint's forms which one it is (the same code means another thing on each).
 */
export type SayContext = {
  channels?: Record<string, string>
  entries?: string[]
  complaint?: { form: 'reply' } | { form: 'open'; statusLabel: string; open: boolean; days: number }
}
type Rule = RefusalRule<Texts, SayContext>

const onComplaint =
  (form?: 'open' | 'reply') =>
  (c: SayContext): boolean =>
    c.complaint !== undefined && (form === undefined || c.complaint.form === form)

// First match wins: the complaint forms' own words, then each field's, then the shared table's.
const RULES: Rule[] = [
  { code: 'COMPLAINT_ALREADY_OPEN', to: 'line', say: (t) => t.complaints.refusals.alreadyOpen },
  { code: 'COMPLAINT_NOT_ALLOWED', when: onComplaint('reply'), to: 'message', say: (t) => t.complaints.refusals.closed },
  {
    code: 'COMPLAINT_NOT_ALLOWED',
    when: onComplaint('open'),
    to: 'line',
    say: (t, _m, c) =>
      c.complaint?.form === 'open' && c.complaint.open
        ? t.complaints.refusals.window(c.complaint.days)
        : t.complaints.refusals.lineStatus(c.complaint?.form === 'open' ? c.complaint.statusLabel : ''),
  },
  { code: 'VALIDATION_ERROR', field: 'order_item_id', when: onComplaint(), to: 'line', say: (t) => t.complaints.refusals.notALine },
  { code: 'VALIDATION_ERROR', field: 'reason', when: onComplaint(), say: (t) => t.complaints.refusals.reason },
  { code: 'VALIDATION_ERROR', field: 'message', when: onComplaint(), say: (t) => t.complaints.refusals.messageEmpty },
  { code: 'TRY_AGAIN_LATER', field: 'amount', say: (t) => t.forms.say.codesTaken },
  { code: 'DUPLICATE', field: 'email', say: (t) => t.forms.say.userTaken },
  { code: 'VALIDATION_ERROR', field: 'channel', say: (t) => t.forms.say.channel },
  // A top-up's limits: the amounts are in the sentence only.
  ...amountRules(),
]

function amountRules(): Rule[] {
  const channel = (m: RegExpExecArray | null, c: SayContext) => c.channels?.[m![2]!] ?? m![2]!
  const amount = (sentence: RegExp, say: Rule['say']): Rule => ({ code: 'VALIDATION_ERROR', field: 'amount', sentence, say })
  return [
    amount(/^must be at least (\d+) on (\S+)$/, (t, m, c) => t.forms.say.amountMin(c.rp(+m![1]!), channel(m, c))),
    amount(/^must be at most (\d+) on (\S+)$/, (t, m, c) => t.forms.say.amountMax(c.rp(+m![1]!), channel(m, c))),
    amount(/^with its fee must be at most (\d+)$/, (t, m, c) => t.forms.say.amountWithFee(c.rp(+m![1]!))),
  ]
}

// A refusal not known yet still says which field, never English.
const TABLE: RefusalTable<Texts, SayContext> = { rules: RULES, unknown: (t) => t.forms.say.other }
const FORM_CODES = codesOf(TABLE)

/**
 * The service's refusal as the form's field sentences (`ip_allowlist.3` is the ip_allowlist field,
 * naming its fourth entry); a refusal no form meets (a 404, a suspended account) is rethrown for the error page.
 */
export function fieldRefusals(error: unknown, texts: Texts, context: SayContext = {}): Record<string, string> {
  if (!(error instanceof AppError) || !FORM_CODES.has(error.code) || !error.fieldErrors) throw error
  const said = saidFieldErrors(TABLE, error, texts, context)
  return Object.fromEntries(Object.entries(said).map(([field, sentences]) => [field, sentences.join(' ')]))
}

/** The form's page again, 422, with what was typed and each field's sentence. */
export function sendBack(reply: FastifyReply, template: string, data: Record<string, unknown>, form: SentBack): FastifyReply {
  return reply.status(422).screen(template, { ...data, form })
}
