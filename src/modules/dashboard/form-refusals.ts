import type { FastifyReply } from 'fastify'
import { AppError } from '../../errors.js'
import { viewHelpers as pageHelpers } from '../../http/page-format.js'
import type { Texts } from './texts.id.js'

// Every dashboard form's refusal, one way (docs/design.md §13): the services refuse in the API's English
// (AppError field errors such as `amount: must be at least 10000 on QRIS`); the form comes back as
// itself with what was typed, each field's sentence next to it in the page's language, amounts as
// Rupiah, no codes or field keys. The API's sentences are matched here once; each catalogue words them.

/** A form sent back: what was typed (by field name) and one sentence per field. */
export type SentBack = { values: Record<string, string>; errors: Record<string, string> }

/** What a sentence may need to be said well: the form's channels by code, the list it checked (ip_allowlist.3). */
export type SayContext = { channels?: Record<string, string>; entries?: string[] }

type Say = Texts['forms']['say']
type Rule = { re: RegExp; say: (say: Say, m: RegExpExecArray, c: SayContext & { rp: (n: number) => string; entry?: string }) => string }

// The services' sentences the dashboard's forms can meet (topups, accounts, webhooks, users).
const RULES: Rule[] = [
  { re: /^must be at least (\d+) on (\S+)$/, say: (s, m, c) => s.amountMin(c.rp(+m[1]!), c.channels?.[m[2]!] ?? m[2]!) },
  { re: /^must be at most (\d+) on (\S+)$/, say: (s, m, c) => s.amountMax(c.rp(+m[1]!), c.channels?.[m[2]!] ?? m[2]!) },
  { re: /^with its fee must be at most (\d+)$/, say: (s, m, c) => s.amountWithFee(c.rp(+m[1]!)) },
  { re: /^must be a whole number of Rupiah/, say: (s) => s.wholeRupiah },
  { re: /^is not an available channel/, say: (s) => s.channel },
  { re: /^every unique code for/, say: (s) => s.codesTaken },
  { re: /^is required/, say: (s) => s.required },
  { re: /^must be an IP address or CIDR$/, say: (s, _m, c) => s.notAnAddress(c.entry ?? '') },
  { re: /^must not contain spaces or control characters/, say: (s) => s.urlSpaces },
  { re: /^must not contain backslashes/, say: (s) => s.urlBackslash },
  { re: /^must be an absolute URL$/, say: (s) => s.urlAbsolute },
  { re: /^must use https \(http only for localhost\)$/, say: (s) => s.urlHttpsLocal },
  { re: /^must use https$/, say: (s) => s.urlHttps },
  { re: /^must not contain a user name or password/, say: (s) => s.urlCredentials },
  { re: /^must reach a public address$/, say: (s) => s.urlPublic },
  { re: /^enabling webhooks needs a callback_url$/, say: (s) => s.needsUrl },
  { re: /^generate a secret first/, say: (s) => s.needsSecret },
  { re: /^must be an email address/, say: (s) => s.email },
  { re: /^is already a user of this account$/, say: (s) => s.userTaken },
  { re: /^must be at least (\d+) characters$/, say: (s, m) => s.tooShort(+m[1]!) },
  { re: /^must be at most (\d+) characters$/, say: (s, m) => s.tooLong(+m[1]!) },
  { re: /^must repeat the password exactly$/, say: (s) => s.repeat },
  { re: /^is not your current password$/, say: (s) => s.current },
]

// Refusals that are about what was typed; any other (a 404, a suspended account) is the error page.
const FORM_CODES = new Set(['VALIDATION_ERROR', 'DUPLICATE', 'TRY_AGAIN_LATER'])

/** One service sentence in the page's language; one the dashboard does not know yet still says which field, never English. */
export function saySentence(texts: Texts, sentence: string, context: SayContext & { entry?: string } = {}): string {
  const rp = (n: number) => pageHelpers('UTC').rp(n)
  for (const rule of RULES) {
    const m = rule.re.exec(sentence)
    if (m) return rule.say(texts.forms.say, m, { ...context, rp })
  }
  return texts.forms.say.other
}

/**
 * The service's refusal as the form's field sentences (`ip_allowlist.3` is the ip_allowlist field,
 * naming its fourth entry); anything not about the form's input is rethrown for the error page.
 */
export function fieldRefusals(error: unknown, texts: Texts, context: SayContext = {}): Record<string, string> {
  if (!(error instanceof AppError) || !FORM_CODES.has(error.code) || !error.fieldErrors) throw error
  const out: Record<string, string> = {}
  for (const [key, sentences] of Object.entries(error.fieldErrors)) {
    const [field, index] = key.split('.') as [string, string | undefined]
    const entry = index === undefined ? undefined : context.entries?.[Number(index)]
    const said = [...new Set(sentences.map((s) => saySentence(texts, s, { ...context, entry })))].join(' ')
    out[field] = out[field] ? `${out[field]} ${said}` : said
  }
  return out
}

/** The form's page again, 422, with what was typed and each field's sentence. */
export function sendBack(reply: FastifyReply, template: string, data: Record<string, unknown>, form: SentBack): FastifyReply {
  return reply.status(422).screen(template, { ...data, form })
}
