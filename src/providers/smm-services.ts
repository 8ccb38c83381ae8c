import { countOf, decimalOf, failureOf, isList, isRecord, storable, text, type ListedProduct, type PriceListRead } from './price-list.js'
import { postUpstream, type ProviderAccount } from './upstream-http.js'

function serviceOf(read: unknown): ListedProduct | undefined {
  const entry = storable(read)
  if (!isRecord(entry)) return undefined
  const code = text(entry.service)?.trim()
  const name = text(entry.name)?.trim()
  const rate = decimalOf(entry.rate)
  if (!code || !name || rate === undefined) return undefined
  const category = text(entry.category) ?? ''
  return {
    code,
    name,
    category,
    // Panels have no brand: the category (the platform: Instagram, TikTok) stands for it.
    brand: category,
    type: text(entry.type) ?? '',
    price: rate,
    minQuantity: countOf(entry.min),
    maxQuantity: countOf(entry.max),
    // A panel lists only what it sells now: a service switched off leaves the list.
    active: true,
    unlimitedStock: true,
    stock: null,
    cutOffStart: null,
    cutOffEnd: null,
    postpaid: false,
    raw: entry,
  }
}

/** SMM panel API v2 `action=services`: every service with its rate per 1,000, min and max. */
export async function readPanelServices(account: ProviderAccount, timeoutMs: number): Promise<PriceListRead> {
  const reply = await postUpstream(account.baseUrl, { form: { key: account.apiKey, action: 'services' } }, timeoutMs, { read: true })
  const body = reply.kind === 'answer' ? reply.body : undefined
  if (reply.kind === 'unreachable' || reply.status >= 400 || !isList(body))
    return { ok: false, reason: `services: ${failureOf(reply, isRecord(body) ? body.error : undefined)}` }
  return panelServicesOf(body)
}

/** An `action=services` answer's entries as a sync keeps them; entries without a service, name or rate are skipped. */
export function panelServicesOf(body: unknown[]): PriceListRead & { ok: true } {
  const services = body.map(serviceOf)
  const found = services.filter((s): s is ListedProduct => s !== undefined)
  return { ok: true, products: found, skipped: services.length - found.length }
}
