import type { TSchema } from '@sinclair/typebox'
import { ERROR_CODES, type ErrorCode } from '../errors.js'
import { errors } from './schemas.js'

export type Audience = 'reseller' | 'operator' | 'public'

/** What the OpenAPI document says of one operation beyond its schemas; a route's schema carries it (see `operation`). */
export type OperationDoc = {
  operationId: string
  /** Left out where the route's schema says `description` itself. */
  description?: string
  /** The success response's description. */
  returns?: string
  /** Every code the route answers beyond its audience's (AUDIENCE_CODES); each is a response under its status of src/errors.ts. */
  codes?: ErrorCode[]
  request?: unknown
  response?: unknown
  errorExamples?: Partial<Record<ErrorCode, object>>
}

/** Codes every route of an audience can answer, whatever it takes: its credentials, the rate limit, server trouble. */
export const AUDIENCE_CODES: Record<Audience, ErrorCode[]> = {
  reseller: [
    'INVALID_API_KEY',
    'INVALID_IP',
    'THE_ACCOUNT_HAS_BEEN_SUSPENDED',
    'TOO_MANY_REQUESTS',
    'INTERNAL_ERROR',
    'SERVICE_UNAVAILABLE',
  ],
  operator: ['UNAUTHORIZED', 'FORBIDDEN_FOR_ROLE', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'],
  public: ['INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'],
}

// How each audience authenticates, as the document's security schemes name it (the scopes in http/server.ts check it).
const SECURITY: Record<Audience, Record<string, string[]>[] | undefined> = {
  reseller: [{ apiKey: [] }],
  operator: [{ adminToken: [] }],
  public: undefined,
}

/** The schema key that carries a route's doc to the document (src/http/openapi.ts reads and removes it). */
export const DOC_KEY = 'x-operation'

/** A module's docs, keyed by operationId: a route names its own (`ORDER_DOCS.createPurchase`), so none is matched by path. */
export function operations<K extends string>(docs: Record<K, Omit<OperationDoc, 'operationId'>>): Record<K, OperationDoc> {
  const entries = Object.entries<Omit<OperationDoc, 'operationId'>>(docs).map(([operationId, doc]) => [
    operationId,
    { operationId, ...doc },
  ])
  return Object.fromEntries(entries) as Record<K, OperationDoc>
}

/**
 * A route's schema parts from its audience and doc: its security, the doc itself, and its responses:
 * `success` plus an error response at the status of each code it answers (its own and its
 * audience's), so no second list of statuses can drift.
 */
export function operation<S extends Record<number, TSchema>>(audience: Audience, doc: OperationDoc, success: S) {
  const statuses = new Set([...AUDIENCE_CODES[audience], ...(doc.codes ?? [])].map((code) => ERROR_CODES[code]))
  const security = SECURITY[audience]
  // Typed as the success responses alone: a handler returns those, the error handler the rest.
  return { ...(security && { security }), [DOC_KEY]: doc, response: { ...success, ...errors(...statuses) } } as {
    security?: Record<string, string[]>[]
    [DOC_KEY]: OperationDoc
    response: S
  }
}
