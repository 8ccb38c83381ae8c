import { AppError } from '../../errors.js'
import { ERROR_PAGE_TEXTS, type SayFailure } from '../../http/web-error-page.js'
import { FORMS_ID, type FormTexts } from '../../http/web-refusal-texts.id.js'
import { saidFieldErrors, sayRefusal, type RefusalRule, type RefusalTable } from '../../http/web-refusals.js'
import { DETAILS_ID } from './texts/details.id.js'
import type { ConsoleLang } from './texts.js'

// The console's refusals in the page's language: in English as the service said them (the operator API's
// words), in Indonesian from the table the dashboard's forms use too (http/web-refusals.ts). An operator
// still reads the service's own words after a sentence the table does not know yet: they name the fault.

type Said = { forms: FormTexts; details: typeof DETAILS_ID }
const ID: Said = { forms: FORMS_ID, details: DETAILS_ID }

/** The services' details (`order is cancelled`), matched by code and sentence on the error page. */
const detail = (code: string, sentence: RegExp, say: (t: Said['details'], m: RegExpExecArray) => string): RefusalRule<Said> => ({
  code,
  field: '',
  sentence,
  say: (t, m) => say(t.details, m!),
})
const RULES: RefusalRule<Said>[] = [
  detail('DUPLICATE', /^provider (\S+) exists$/, (d, m) => d.providerExists(m[1]!)),
  detail('DUPLICATE', /^category (.+) exists$/, (d, m) => d.categoryExists(m[1]!)),
  detail('DUPLICATE', /^the category has a product (of that name|named .+)$/, (d) => d.productNameTaken),
  detail('INVALID_STATE', /^the category has products/, (d) => d.categoryHasProducts),
  detail('INVALID_STATE', /^the product has items/, (d) => d.productHasItems),
  detail('INVALID_STATE', /^order is (\S+)$/, (d, m) => d.orderIs(m[1]!)),
  detail('INVALID_STATE', /^line is (\S+)$/, (d, m) => d.lineIs(m[1]!)),
  detail('INVALID_STATE', /^request is (\S+)$/, (d, m) => d.requestIs(m[1]!)),
  detail('INVALID_STATE', /^request left review meanwhile$/, (d) => d.requestLeftReview),
  detail('INVALID_STATE', /^a (\S+) provider reports no balance$/, (d, m) => d.noBalance(m[1]!)),
  detail('INVALID_STATE', /^the top-up awaits an operator.s review$/, (d) => d.topupInReview),
  detail('NOT_FOUND', /^no bank mutation (\S+)$/, (d, m) => d.noBankMutation(m[1]!)),
  // A field already taken (a level's code, an operator's email).
  { code: 'DUPLICATE', say: (t) => t.forms.say.notInUse },
]
const TABLE: RefusalTable<Said, object> = {
  rules: RULES,
  unknown: (t, sentence) => `${t.forms.say.other} ${t.forms.say.asSent(sentence)}`,
  byPath: true,
}

/** A refusal's field sentences, by the path each names (`rules.3.percent`), in the page's language. */
export function saidFields(error: AppError, lang: ConsoleLang): Record<string, string[]> {
  return lang === 'en' ? (error.fieldErrors ?? {}) : saidFieldErrors(TABLE, error, ID, {})
}

/** The service's detail in the page's language: in Indonesian, what the table knows, else what its code means, then its words. */
function saidDetail(error: AppError, lang: ConsoleLang): string | undefined {
  if (error.message === error.code) return undefined
  if (lang === 'en') return error.message
  const [, known] = sayRefusal({ ...TABLE, unknown: () => '' }, ID, error.code, '', error.message, {})
  const meaning = ERROR_PAGE_TEXTS.id.codes[error.code] ?? ERROR_PAGE_TEXTS.id.refused
  return known || `${meaning} ${ID.forms.say.asSent(error.message)}`
}

/** The console's error page words: the detail and the field errors in the page's language. */
export const sayConsoleFailure: SayFailure = (error, lang) => ({ detail: saidDetail(error, lang), fields: saidFields(error, lang) })

/**
 * A refusal of the form's own fields (VALIDATION_ERROR, DUPLICATE naming a field, or the codes given): its
 * status and each field's sentences, shown under the fields; anything else is the error page's.
 */
export function formRefusal(
  error: unknown,
  lang: ConsoleLang,
  codes: readonly string[] = ['VALIDATION_ERROR', 'DUPLICATE'],
): { status: number; fields: Record<string, string[]> } | undefined {
  if (!(error instanceof AppError) || !error.fieldErrors || !codes.includes(error.code)) return undefined
  return { status: error.status, fields: saidFields(error, lang) }
}
