import type { AppError } from '../errors.js'
import { viewHelpers } from './page-format.js'
import type { FormTexts } from './web-refusal-texts.id.js'

// A form's refusal in the page's language, one way for the console and the dashboard (docs/design.md §13):
// the services refuse with an AppError whose field errors are in the API's English (`amount: must be at
// least 10000 on QRIS`); a refusal is looked up by its code and field, and only where the service names
// the fault in words alone (a bound, a URL's fault) is its sentence matched too, here and only here.
// An area puts its own rules (the dashboard's complaint forms, its top-up limits) before these.

/** What every sentence may use: the entry of a list a field names (`ip_allowlist.3`), Rupiah. */
export type Said<C> = C & { rp: (n: number) => string; entry?: string }
/** A refusal's sentence, said from an area's texts `T` (holding the shared `forms`), in a context `C` the area gives. */
export type RefusalRule<T, C = object> = {
  code: string
  /** The field the service names (before any `.index`); none: any field. */
  field?: string
  /** Only where the code and field do not say it all: the service's sentence. */
  sentence?: RegExp
  /** Only on some forms of the area (a complaint's). */
  when?: (context: C) => boolean
  /** The form's own field the sentence goes beside, when not the service's. */
  to?: string
  say: (t: T, m: RegExpExecArray | null, c: Said<C>) => string
}
type Shared = RefusalRule<{ forms: FormTexts }, { entries?: string[] }>

/** The schemas' sentences (http/error-handler.ts), the URL check's and the console's own, on whichever field. */
const SENTENCES: [RegExp, Shared['say']][] = [
  [/^must be a whole number of Rupiah/, (t) => t.forms.say.wholeRupiah],
  [/^(is required|must not be empty|must not be blank|is empty)/, (t) => t.forms.say.required],
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
  [/^must be (\d+) to (\d+) characters$/, (t, m) => t.forms.say.lengthBetween(+m![1]!, +m![2]!)],
  [/^must be ≥ (\S+)$/, (t, m) => t.forms.say.atLeast(m![1]!)],
  [/^must be ≤ (\S+)$/, (t, m) => t.forms.say.atMost(m![1]!)],
  [/^must be > (\S+)$/, (t, m) => t.forms.say.moreThan(m![1]!)],
  [/^must be < (\S+)$/, (t, m) => t.forms.say.lessThan(m![1]!)],
  [/^must be one of: (.+)$/, (t, m) => t.forms.say.oneOf(m![1]!)],
  [/^must be (an integer|a whole number)/, (t) => t.forms.say.wholeNumber],
  [/^must be a number/, (t) => t.forms.say.number],
  [/^must have at most (\d+) decimals$/, (t, m) => t.forms.say.decimals(+m![1]!)],
  [/^(is already used|exists already)/, (t) => t.forms.say.notInUse],
  [/^is not in the documented format$/, (t) => t.forms.say.format],
  [/^does not match the password$/, (t) => t.forms.say.repeat],
]

/** The rules every area's forms share; first match wins. */
export const SHARED_RULES: Shared[] = [
  { code: 'VALIDATION_ERROR', field: 'current_password', say: (t) => t.forms.say.current },
  { code: 'VALIDATION_ERROR', field: 'password_again', say: (t) => t.forms.say.repeat },
  {
    code: 'VALIDATION_ERROR',
    field: 'ip_allowlist',
    sentence: /^must be an IP address or CIDR$/,
    say: (t, _m, c) => t.forms.say.notAnAddress(c.entry ?? ''),
  },
  ...SENTENCES.map(([sentence, say]): Shared => ({ code: 'VALIDATION_ERROR', sentence, say })),
]

const rp = (n: number) => viewHelpers('UTC').rp(n)
const fits = <T, C>(rule: RefusalRule<T, C>, code: string, field: string, sentence: string, context: C) =>
  rule.code === code &&
  (rule.field === undefined || rule.field === field) &&
  (rule.when === undefined || rule.when(context)) &&
  (rule.sentence === undefined || rule.sentence.test(sentence))

/** How an area says its refusals: its rules before the shared ones, and what it says of a sentence none knows. */
export type RefusalTable<T extends { forms: FormTexts }, C> = {
  rules: RefusalRule<T, C>[]
  unknown: (t: T, sentence: string) => string
  /** Said beside the whole path the service named (`rules.3.percent`: the console's rows), not its first field. */
  byPath?: boolean
}

/** One refusal of one field in the page's language, and the form field it goes beside. */
export function sayRefusal<T extends { forms: FormTexts }, C extends { entries?: string[] }>(
  table: RefusalTable<T, C>,
  texts: T,
  code: string,
  key: string,
  sentence: string,
  context: C,
): [string, string] {
  const [field, index] = key.split('.') as [string, string | undefined]
  const entry = index === undefined ? undefined : context.entries?.[Number(index)]
  const rule = [...table.rules, ...(SHARED_RULES as RefusalRule<T, C>[])].find((r) => fits(r, code, field, sentence, context))
  const beside = table.byPath ? key : field
  if (!rule) return [beside, table.unknown(texts, sentence)]
  return [rule.to ?? beside, rule.say(texts, rule.sentence?.exec(sentence) ?? null, { ...context, entry, rp })]
}

/** Every field error of a refusal said in the page's language, by the form field each goes beside. */
export function saidFieldErrors<T extends { forms: FormTexts }, C extends { entries?: string[] }>(
  table: RefusalTable<T, C>,
  error: AppError,
  texts: T,
  context: C,
): Record<string, string[]> {
  const out: Record<string, Set<string>> = {}
  for (const [key, said] of Object.entries(error.fieldErrors ?? {}))
    for (const sentence of said) {
      const [field, text] = sayRefusal(table, texts, error.code, key, sentence, context)
      ;(out[field] ??= new Set()).add(text)
    }
  return Object.fromEntries(Object.entries(out).map(([field, said]) => [field, [...said]]))
}

/** The codes a table says refusals of: the dashboard sends those back as the form, anything else is the error page's. */
export const codesOf = <T extends { forms: FormTexts }, C>(table: RefusalTable<T, C>) =>
  new Set([...table.rules, ...SHARED_RULES].map((rule) => rule.code))
