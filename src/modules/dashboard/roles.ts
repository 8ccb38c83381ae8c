import type { FastifyRequest } from 'fastify'
import { AppError } from '../../errors.js'

/** A page or action only the account's owner may use (keys, allow-list, webhooks, users): staff get a 403 page. */
export async function ownerOnly(request: FastifyRequest): Promise<void> {
  if (request.dashboardUser.role !== 'owner') throw new AppError('OWNER_ONLY')
}
