import type { Config } from '../../config.js'
import type { Database } from '../../db/database.js'
import { AppError, invalidField } from '../../errors.js'
import { inquirePln } from '../../providers/digiflazz.js'
import { isRecord, text } from '../../providers/upstream-http.js'
import type { Vault } from '../../vault.js'
import { VALIDATE_ENDPOINT, validationFields, type ValidationField } from '../catalog/index.js'
import { loadProviderAccount } from './provider-accounts.js'
import { itemsThatValidate, itemToValidate } from './validation.queries.js'

/** `details`: what the source said about the account, as the public docs show it (name, region, and for a meter its power class). */
export type AccountCheck = { display_name: string; account_name: string; region: string; details: Record<string, string> }
type Found = AccountCheck | { notFound: string }

// Game and meter names change rarely; a few minutes spares the upstream repeated checks of one id.
const CACHE_MS = 5 * 60_000
const CACHE_ENTRIES = 10_000

type ValidationMeta = { available: true; requires_zone_id: boolean; fields: ValidationField[]; endpoint: string }
const validationMeta = (zone: boolean): ValidationMeta => ({
  available: true,
  requires_zone_id: zone,
  fields: validationFields(zone),
  endpoint: VALIDATE_ENDPOINT,
})

/**
 * POST /v1/item/validate (docs/design.md §5b): a PLN meter (provider_code pln…) through the provider's
 * inquiry-pln, a game account through the validation source (VALIDATION_SOURCE_URL). Found
 * accounts are cached in this process for a few minutes.
 */
export function createAccountValidation(
  db: Database,
  vault: Vault,
  config: Pick<Config, 'providerTimeoutMs' | 'validationSourceUrl'>,
  fetchFn: typeof fetch = fetch,
) {
  const cache = new Map<string, { expires: number; value: AccountCheck }>()

  async function lookUp(item: { provider: string; provider_code: string }, customerId: string, zoneId: string): Promise<Found> {
    if (/^pln/i.test(item.provider_code)) {
      const account = await loadProviderAccount(db, vault, item.provider)
      if (!account) throw new AppError('VALIDATION_NOT_AVAILABLE')
      const answer = await inquirePln(account, customerId, config.providerTimeoutMs)
      if ('unavailable' in answer) throw new AppError('SERVICE_UNAVAILABLE')
      if (!answer.found) return { notFound: answer.message }
      const details = { name: answer.name, region: answer.segmentPower, segment_power: answer.segmentPower }
      return { display_name: answer.name, account_name: answer.name, region: answer.segmentPower, details }
    }
    if (!config.validationSourceUrl) throw new AppError('VALIDATION_NOT_AVAILABLE')
    const query = new URLSearchParams({ product: item.provider_code, id: customerId, zone: zoneId })
    let body: unknown
    try {
      const res = await fetchFn(`${config.validationSourceUrl}/check?${query}`, {
        signal: AbortSignal.timeout(config.providerTimeoutMs),
        redirect: 'error',
      })
      if (res.status >= 500) throw new Error(`HTTP ${res.status}`)
      body = await res.json()
    } catch {
      throw new AppError('SERVICE_UNAVAILABLE')
    }
    if (!isRecord(body) || typeof body.found !== 'boolean') throw new AppError('SERVICE_UNAVAILABLE')
    if (!body.found) return { notFound: text(body.message) ?? 'account not found' }
    const name = text(body.username) ?? ''
    const region = text(body.region) ?? ''
    return { display_name: region ? `${name} (${region})` : name, account_name: name, region, details: { name, region } }
  }

  return {
    async validate(input: { item_id: number; customer_id: string; zone_id?: string | null }) {
      const item = await itemToValidate(db, input.item_id)
      if (!item || !item.active) throw new AppError('ITEM_NOT_FOUND')
      if (!item.offers_validation || !item.provider || !item.provider_code) throw new AppError('VALIDATION_NOT_AVAILABLE')
      if (!item.provider_active) throw new AppError('PRODUCT_TEMPORARILY_UNAVAILABLE')
      const customerId = input.customer_id.trim()
      const zoneId = input.zone_id?.trim() ?? ''
      if (!customerId) throw invalidField('customer_id', 'must not be blank')
      if (item.provider_meta.requires_zone_id && !zoneId) throw invalidField('zone_id', 'is required for this item')
      const key = JSON.stringify([item.provider, item.provider_code, customerId, zoneId])
      const hit = cache.get(key)
      if (hit && hit.expires > Date.now()) return { ...hit.value, cached: true }
      const found = await lookUp({ provider: item.provider, provider_code: item.provider_code }, customerId, zoneId)
      if ('notFound' in found) throw invalidField('customer_id', found.notFound)
      cache.delete(key)
      cache.set(key, { expires: Date.now() + CACHE_MS, value: found })
      if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!)
      return { ...found, cached: false }
    },

    /** GET /v1/validation/services: products and their variants that validate, by name. */
    async services(search: string | undefined) {
      const pattern = search?.trim() ? `%${search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null
      const rows = await itemsThatValidate(db, pattern)
      const products: {
        product_id: number
        product_name: string
        category: string
        validation: ValidationMeta
        variants: { item_id: number; name: string; requires_zone_id: boolean; fields: ValidationField[] }[]
      }[] = []
      for (const r of rows) {
        let product = products.at(-1)
        if (product?.product_id !== r.product_id) {
          product = {
            product_id: r.product_id,
            product_name: r.product_name,
            category: r.category,
            validation: validationMeta(false),
            variants: [],
          }
          products.push(product)
        }
        const zone = r.provider_meta.requires_zone_id === true
        const { requires_zone_id, fields } = validationMeta(zone)
        product.variants.push({ item_id: r.item_id, name: r.name, requires_zone_id, fields })
        // The product's: a zone is asked for when any of its variants needs one.
        if (zone) product.validation = validationMeta(true)
      }
      // total_variants: the name before the public docs' total_items, kept for existing clients.
      return { data: products, meta: { total_products: products.length, total_items: rows.length, total_variants: rows.length } }
    },
  }
}
