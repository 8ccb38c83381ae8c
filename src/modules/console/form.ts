import { Type, type TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { AppError, invalidField } from '../../errors.js'

/** A console form's body: its fields are text, plus the CSRF token every form carries. */
export { Form } from '../../http/web-pages.js'
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

/** The form converted, then held to the operator API's own schema, so both refuse the same values. */
export function asApiBody<T>(schema: TSchema, value: Record<string, unknown>): T {
  const clean = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined))
  const fieldErrors: Record<string, string[]> = {}
  for (const e of Value.Errors(schema, clean)) (fieldErrors[e.path.slice(1).replaceAll('/', '.') || 'form'] ??= []).push(e.message)
  if (Object.keys(fieldErrors).length) throw new AppError('VALIDATION_ERROR', { fieldErrors })
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

/** Pages say what just happened by a fixed key (`?done=credited`), never by text from the URL. */
export const NOTICES: Record<string, string> = {
  credited: 'Balance adjusted.',
  status: 'Status changed.',
  limits: 'Lock cap and IP allow-list saved.',
  redelivered: 'Delivery queued again.',
  sent: 'Line sent.',
  canceled: 'Order canceled; undelivered lines refunded.',
  resolved: 'Request resolved.',
  item: 'Item saved.',
  provider: 'Provider saved.',
  balance: 'Balance read.',
  channel: 'Channel saved.',
  synced: 'Channels imported from the payment gateway.',
  paid: 'Top-up marked paid.',
  matched: 'Mutation matched: the top-up is credited.',
  ignored: 'Mutation set aside: it credits nothing.',
  imported: 'Statement imported: each row went through the matcher; what it could not match is listed first.',
  category: 'Category saved.',
  product: 'Product saved.',
  deleted: 'Deleted.',
  'user-removed': 'Dashboard user removed and signed out everywhere.',
  webhook: 'Webhook settings saved.',
  sync: 'Price list read.',
  'sync-failed': 'The price list could not be read; the previous one is kept (see the last sync).',
  'sync-busy': 'A sync of this provider is running now; look again when it has finished.',
  rule: 'Pricing rule saved; its items repriced.',
  level: 'Price level saved.',
  rules: 'Level rules saved; the level’s prices recomputed.',
  'level-price': 'Price per level saved.',
  'price-level': 'Price level changed: its next request pays the new level’s prices.',
  sources: 'Sources saved; the item follows the first that serves.',
  'held-approved': 'Held price applied; its items repriced.',
  'held-rejected': 'Held price rejected: the same price is ignored until the list changes it.',
  invited: 'Password set: sign in with your email and password.',
  owner: 'First owner created: sign in with its email and password, then set up its second factor.',
  operator: 'Operator saved.',
  'role-changed': 'Role changed; they were signed out everywhere.',
  'operator-removed': 'Operator removed: signed out everywhere, every token revoked.',
  'factor-reset': 'Second factor reset: they were signed out and set it up again at their next sign-in.',
  'token-revoked': 'Token revoked: refused from its next use.',
  replied: 'Reply sent: the complaint waits for the reseller.',
  resent: 'Line delivered again: the complaint is closed (resent).',
  rechecked: 'Provider asked: its answer is in the thread.',
  refunded: 'Refunded once: the complaint is closed (refunded).',
  rejected: 'Complaint rejected: the reseller reads the reason.',
}
export const noticeOf = (query: unknown) => NOTICES[(query as { done?: string }).done ?? ''] ?? undefined
