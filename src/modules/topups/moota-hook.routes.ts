import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { AppError } from '../../errors.js'
import { refuseAuthentication } from '../../http/auth.js'
import { ok } from '../../http/envelope.js'
import { operation } from '../../http/operation.js'
import { keepRawJsonBody } from '../../http/raw-body.js'
import { Ok } from '../../http/schemas.js'
import { isMootaPushSigned } from '../../providers/moota.js'
import { accountDigits, recordMutations, rupiahOf, type NewMutation } from './bank-mutations.service.js'
import { BANK_DOCS } from './bank-transfer.openapi.js'
import { mootaSecret } from './moota-secret.js'

export const PushCounts = Type.Object({
  matched: Type.Integer({ description: 'credits that credited a top-up now' }),
  unmatched: Type.Integer({ description: 'stored for an operator (no single top-up with that total, or a debit)' }),
  duplicate: Type.Integer({ description: 'the total of a top-up another mutation already credited' }),
  repeated: Type.Integer({ description: 'mutation_ids stored before: nothing changed' }),
  rejected: Type.Integer({ description: 'entries without a usable mutation_id, account_number, whole-Rupiah amount or CR/DB type' }),
})

const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined)

/** One pushed entry as a mutation to store, or undefined when it lacks what matching needs. */
function mutationOf(entry: unknown): NewMutation | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return undefined
  const e = entry as Record<string, unknown>
  const id = text(e.mutation_id)?.trim()
  const account = accountDigits(text(e.account_number) ?? '')
  const amount = rupiahOf(e.amount)
  const type = text(e.type)?.toUpperCase()
  if (!id || id.length > 191 || !account || account.length > 30 || amount === undefined || (type !== 'CR' && type !== 'DB'))
    return undefined
  return {
    mutation_id: id,
    source: 'moota',
    bank_id: text(e.bank_id)?.slice(0, 191) ?? null,
    account_number: account,
    amount,
    type,
    description: (text(e.description) ?? '').slice(0, 500),
    date: text(e.date)?.slice(0, 64) ?? null,
    raw: entry,
  }
}

/**
 * Moota's push (docs/design.md §7b), outside X-APIKEY auth: `Signature` is the HMAC-SHA256 of the raw
 * body, so this route parses JSON itself and keeps the bytes. A bad or missing signature stores
 * nothing. Each mutation is stored once by mutation_id and matched; the answer counts them.
 */
export function mootaHookRoutes(ctx: AppContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    keepRawJsonBody(app)
    app.post(
      '/api/hooks/moota',
      {
        bodyLimit: 1024 * 1024,
        preValidation: async (request) => {
          const secret = mootaSecret(ctx)
          if (!secret) throw new AppError('SERVICE_UNAVAILABLE', { detail: 'MOOTA_WEBHOOK_SECRET is not set' })
          const signature = request.headers.signature
          // A wrong signature is a guess at the secret: counted per address like every failed authentication.
          if (!request.rawBody || !isMootaPushSigned(secret, request.rawBody, typeof signature === 'string' ? signature : undefined))
            return refuseAuthentication(ctx, request, new AppError('INVALID_SIGNATURE'))
        },
        schema: {
          tags: ['gateway'],
          summary: 'Moota mutation push (signed with Signature)',
          body: Type.Union([Type.Array(Type.Unknown(), { maxItems: 1000 }), Type.Object({})]),
          ...operation('public', BANK_DOCS.mootaPush, { 200: Ok(PushCounts) }),
        },
      },
      async (request) => {
        const entries: unknown[] = Array.isArray(request.body) ? request.body : [request.body]
        const mutations = entries.map(mutationOf)
        const usable = mutations.filter((m): m is NewMutation => m !== undefined)
        const rejected = mutations.length - usable.length
        if (rejected > 0) request.log.warn({ rejected }, 'moota push: entries without a usable mutation_id, account_number, amount or type')
        const counts = await recordMutations(ctx.db, usable, 'push')
        return ok({ ...counts, rejected })
      },
    )
  }
}
