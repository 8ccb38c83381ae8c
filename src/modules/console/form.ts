import { Type, type TSchema } from '@sinclair/typebox'
import { AppError, invalidField } from '../../errors.js'
import { fieldErrorsAgainst } from '../../http/validators.js'
import { NOTICES_EN } from './texts/notices.en.js'

/** A console form's body: its fields are text, plus the CSRF token every form carries. */
export { Form, typedList } from '../../http/web-pages.js'
export const Text = (maxLength = 500) => Type.String({ maxLength })
export const Optional = Type.Optional

/** Form text to a whole number: blank is undefined, anything but digits names the field. */
export function wholeNumber(field: string, text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined
  if (!/^[-+]?\d{1,16}$/.test(text.trim())) throw invalidField(field, 'must be a whole number')
  return Number(text.trim())
}

export const blankToUndefined = (text: string | undefined) => (text === undefined || text.trim() === '' ? undefined : text.trim())
/** A decimal field (a percent, a fee): undefined when blank. */
export function decimal(field: string, text: string | undefined): number | undefined {
  if (blankToUndefined(text) === undefined) return undefined
  if (!/^\d+(\.\d+)?$/.test(text!.trim())) throw invalidField(field, 'must be a number')
  return Number(text)
}

/** The form converted, then held to the operator API's own schema, so both refuse the same values in the same words. */
export function asApiBody<T>(schema: TSchema, value: Record<string, unknown>): T {
  const clean = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined))
  const fieldErrors = fieldErrorsAgainst(schema, clean, 'form')
  if (fieldErrors) throw new AppError('VALIDATION_ERROR', { fieldErrors })
  return clean as T
}

// Something@something.tld: a typo caught next to the field, not a deliverability check.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
/** An email typed into a form, trimmed; anything unlike one names the field. */
export function emailField(field: string, text: string): string {
  const email = text.trim()
  if (email.length > 191 || !EMAIL.test(email)) throw invalidField(field, 'must be an email address, like name@example.com')
  return email
}

/** A new password typed twice: the second must match, so a typo does not lock the person out. */
export function newPassword(password: string, again: string): string {
  if (password !== again) throw invalidField('password_again', 'does not match the password')
  return password
}

export const checked = (text: string | undefined) => text === 'on' || text === 'true'

/** Pages say what just happened by a fixed key (`?done=credited`), never by text from the URL (./texts/notices.en.ts). */
export const NOTICES: Record<string, string> = NOTICES_EN
export const noticeOf = (query: unknown) => NOTICES[(query as { done?: string }).done ?? ''] ?? undefined
