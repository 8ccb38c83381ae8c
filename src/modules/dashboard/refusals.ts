import type { FastifyReply } from 'fastify'
import { AppError } from '../../errors.js'
import { viewHelpers as pageHelpers } from '../../http/page-format.js'
import type { Texts } from './texts.id.js'

// Every dashboard form's refusal, one way (docs/design.md §13): the services refuse with an AppError whose
// field errors are in the API's English (`amount: must be at least 10000 on QRIS`); the form comes back
// as itself with what was typed, each field's sentence next to it in the page's language, amounts as
// Rupiah, no codes or field keys. A refusal is looked up by its code and field; only where the service
// names the fault in words alone (a limit, a URL's fault) is its sentence matched too, here and only here.

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

type Said = SayContext & { rp: (n: number) => string; entry?: string }
type Rule = {
  code: string
  /** The field the service names (before any `.index`); none: any field. */
  field?: string
  /** Only where the code and field do not say it all: the service's sentence. */
  sentence?: RegExp
  /** Only on a complaint's forms, or only on one of them. */
  complaint?: 'open' | 'reply' | 'any'
  /** The form's own field the sentence goes beside, when not the service's. */
  to?: string
  say: (t: Texts, m: RegExpExecArray | null, c: Said) => string
}

// First match wins: the complaint forms' own words, then each field's, then the schema's sentences any field may get.
const RULES: Rule[] = [
  { code: 'COMPLAINT_ALREADY_OPEN', to: 'line', say: (t) => t.complaints.refusals.alreadyOpen },
  { code: 'COMPLAINT_NOT_ALLOWED', complaint: 'reply', to: 'message', say: (t) => t.complaints.refusals.closed },
  {
    code: 'COMPLAINT_NOT_ALLOWED',
    complaint: 'open',
    to: 'line',
    say: (t, _m, c) =>
      c.complaint?.form === 'open' && c.complaint.open
        ? t.complaints.refusals.window(c.complaint.days)
        : t.complaints.refusals.lineStatus(c.complaint?.form === 'open' ? c.complaint.statusLabel : ''),
  },
  { code: 'VALIDATION_ERROR', field: 'order_item_id', complaint: 'any', to: 'line', say: (t) => t.complaints.refusals.notALine },
  { code: 'VALIDATION_ERROR', field: 'reason', complaint: 'any', say: (t) => t.complaints.refusals.reason },
  { code: 'VALIDATION_ERROR', field: 'message', complaint: 'any', say: (t) => t.complaints.refusals.messageEmpty },
  { code: 'TRY_AGAIN_LATER', field: 'amount', say: (t) => t.forms.say.codesTaken },
  { code: 'DUPLICATE', field: 'email', say: (t) => t.forms.say.userTaken },
  { code: 'VALIDATION_ERROR', field: 'channel', say: (t) => t.forms.say.channel },
  { code: 'VALIDATION_ERROR', field: 'current_password', say: (t) => t.forms.say.current },
  { code: 'VALIDATION_ERROR', field: 'password_again', say: (t) => t.forms.say.repeat },
  {
    code: 'VALIDATION_ERROR',
    field: 'ip_allowlist',
    sentence: /^must be an IP address or CIDR$/,
    say: (t, _m, c) => t.forms.say.notAnAddress(c.entry ?? ''),
  },
  // A top-up's limits: the amounts are in the sentence only.
  ...amountRules(),
  // The schemas' and the URL check's sentences, on whichever field.
  ...sentences('VALIDATION_ERROR', [
    [/^must be a whole number of Rupiah/, (t) => t.forms.say.wholeRupiah],
    [/^is required/, (t) => t.forms.say.required],
    [/^must not contain spaces or control characters/, (t) => t.forms.say.urlSpaces],
    [/^must not contain backslashes/, (t) => t.forms.say.urlBackslash],
    [/^must be an absolute URL$/, (t) => t.forms.say.urlAbsolute],
    [/^must use https \(http only for localhost\)$/, (t) => t.forms.say.urlHttpsLocal],
    [/^must use https$/, (t) => t.forms.say.urlHttps],
    [/^must not contain a user name or password/, (t) => t.forms.say.urlCredentials],
    [/^must reach a public address$/, (t) => t.forms.say.urlPublic],
    [/^enabling webhooks needs a callback_url$/, (t) => t.forms.say.needsUrl],
    [/^generate a secret first/, (t) => t.forms.say.needsSecret],
    [/^must be an email address/, (t) => t.forms.say.email],
    [/^must be at least (\d+) characters$/, (t, m) => t.forms.say.tooShort(+m![1]!)],
    [/^must be at most (\d+) characters$/, (t, m) => t.forms.say.tooLong(+m![1]!)],
  ]),
]

function amountRules(): Rule[] {
  const channel = (m: RegExpExecArray | null, c: Said) => c.channels?.[m![2]!] ?? m![2]!
  const amount = (sentence: RegExp, say: Rule['say']): Rule => ({ code: 'VALIDATION_ERROR', field: 'amount', sentence, say })
  return [
    amount(/^must be at least (\d+) on (\S+)$/, (t, m, c) => t.forms.say.amountMin(c.rp(+m![1]!), channel(m, c))),
    amount(/^must be at most (\d+) on (\S+)$/, (t, m, c) => t.forms.say.amountMax(c.rp(+m![1]!), channel(m, c))),
    amount(/^with its fee must be at most (\d+)$/, (t, m, c) => t.forms.say.amountWithFee(c.rp(+m![1]!))),
  ]
}

function sentences(code: string, said: [RegExp, Rule['say']][]): Rule[] {
  return said.map(([sentence, say]) => ({ code, sentence, say }))
}

const FORM_CODES = new Set(RULES.map((r) => r.code))
const fits = (rule: Rule, code: string, field: string, sentence: string, c: SayContext) =>
  rule.code === code &&
  (rule.field === undefined || rule.field === field) &&
  (rule.complaint === undefined || (c.complaint !== undefined && (rule.complaint === 'any' || rule.complaint === c.complaint.form))) &&
  (rule.sentence === undefined || rule.sentence.test(sentence))

/** One refusal of one field in the page's language, and the form field it goes beside; one not known yet still says which field, never English. */
function sayRefusal(texts: Texts, code: string, key: string, sentence: string, context: SayContext = {}): [string, string] {
  const [field, index] = key.split('.') as [string, string | undefined]
  const entry = index === undefined ? undefined : context.entries?.[Number(index)]
  const rule = RULES.find((r) => fits(r, code, field, sentence, context))
  const said = { ...context, entry, rp: (n: number) => pageHelpers('UTC').rp(n) }
  return [rule?.to ?? field, rule ? rule.say(texts, rule.sentence?.exec(sentence) ?? null, said) : texts.forms.say.other]
}

/**
 * The service's refusal as the form's field sentences (`ip_allowlist.3` is the ip_allowlist field,
 * naming its fourth entry); a refusal no form meets (a 404, a suspended account) is rethrown for the error page.
 */
export function fieldRefusals(error: unknown, texts: Texts, context: SayContext = {}): Record<string, string> {
  if (!(error instanceof AppError) || !FORM_CODES.has(error.code) || !error.fieldErrors) throw error
  const out: Record<string, Set<string>> = {}
  for (const [key, said] of Object.entries(error.fieldErrors))
    for (const sentence of said) {
      const [field, text] = sayRefusal(texts, error.code, key, sentence, context)
      ;(out[field] ??= new Set()).add(text)
    }
  return Object.fromEntries(Object.entries(out).map(([field, said]) => [field, [...said].join(' ')]))
}

/** The form's page again, 422, with what was typed and each field's sentence. */
export function sendBack(reply: FastifyReply, template: string, data: Record<string, unknown>, form: SentBack): FastifyReply {
  return reply.status(422).screen(template, { ...data, form })
}
