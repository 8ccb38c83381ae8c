import createClient, { type ClientOptions } from 'openapi-fetch'
import type { paths } from './schema.js'

export type { components, operations, paths } from './schema.js'
export { verifyLegacySignature, verifyStandardWebhook, verifyWebhook, WebhookVerificationError } from './webhooks.js'
export type { WebhookComplaint, WebhookEvent, WebhookHeaders, WebhookOrder, WebhookOrderLine } from './webhooks.js'

export type ResellerClientOptions = {
  /** The service's base URL, e.g. `http://127.0.0.1:8080` (paths carry `/api/v1`). */
  baseUrl: string
  /** Your API key, sent as `X-APIKEY` on every call. */
  apiKey: string
  fetch?: ClientOptions['fetch']
}

/** A typed client of every route of the OpenAPI document: `client.POST('/api/v1/trx', { body })` answers `{ data, error, response }`. */
export function createResellerClient(options: ResellerClientOptions) {
  return createClient<paths>({ baseUrl: options.baseUrl, headers: { 'X-APIKEY': options.apiKey }, fetch: options.fetch })
}

export type ResellerClient = ReturnType<typeof createResellerClient>
