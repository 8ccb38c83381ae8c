import { AppError, ERROR_CODES, type ErrorCode } from '../../errors.js'

type DbError = { code?: string; message?: string; detail?: string; hint?: string }

// Refusals that tell the caller which field to fix, and how, in `errors`.
const NAMES_FIELD = new Set<ErrorCode>([
  'VALIDATION_ERROR',
  'REQUIRED_FIELD_MISSING',
  'MINIMUM_ORDER_NOT_MET',
  'ITEM_NOT_FOUND',
  'SMM_ORDER_REQUIRES_JSON_NOTE',
  'INQUIRY_NOT_FOUND',
  'INQUIRY_EXPIRED',
  'COMPLAINT_NOT_ALLOWED',
])

/** A refusal raised in SQL by raise_app() (SQLSTATE RS422, app-errors.sql) as the AppError it stands for. */
export function appErrorFromDatabase(error: DbError): AppError | undefined {
  if (error.code !== 'RS422' || !(error.message! in ERROR_CODES)) return undefined
  const code = error.message as ErrorCode
  // raise_app() with data: the detail is {"field", "data"}; a field path never starts with '{'.
  if (error.detail?.startsWith('{')) {
    const { field, data } = JSON.parse(error.detail) as { field: string | null; data: unknown }
    return new AppError(code, { fieldErrors: field ? { [field]: [error.hint || 'is invalid'] } : undefined, data })
  }
  if (NAMES_FIELD.has(code) && error.detail) return new AppError(code, { fieldErrors: { [error.detail]: [error.hint || 'is invalid'] } })
  return new AppError(code)
}

/** Runs a statement that may call raise_app(): its refusal arrives as an AppError. */
export async function raisingAppErrors<T>(statement: Promise<T>): Promise<T> {
  try {
    return await statement
  } catch (error) {
    throw appErrorFromDatabase(error as DbError) ?? error
  }
}
