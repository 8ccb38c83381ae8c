import { digiflazzSign } from './digiflazz.js'
import {
  cutOffOf,
  countOf,
  decimalOf,
  failureOf,
  flagOf,
  isList,
  isRecord,
  storable,
  text,
  type ListedProduct,
  type PriceListRead,
} from './price-list.js'
import { postUpstream, type ProviderAccount } from './upstream-http.js'

function productOf(read: unknown, postpaid: boolean): ListedProduct | undefined {
  const entry = storable(read)
  if (!isRecord(entry)) return undefined
  const code = text(entry.buyer_sku_code)?.trim()
  const name = text(entry.product_name)?.trim()
  // A postpaid product has no price: what it costs per bill is its admin fee.
  const price = decimalOf(postpaid ? entry.admin : entry.price)
  if (!code || !name || price === undefined) return undefined
  return {
    code,
    name,
    category: text(entry.category) ?? '',
    brand: text(entry.brand) ?? '',
    type: text(entry.type) ?? '',
    price,
    minQuantity: null,
    maxQuantity: null,
    active: flagOf(entry.buyer_product_status) && flagOf(entry.seller_product_status),
    unlimitedStock: flagOf(entry.unlimited_stock),
    stock: countOf(entry.stock),
    ...cutOffOf(entry.start_cut_off, entry.end_cut_off),
    postpaid,
    raw: entry,
  }
}

/** POST /price-list for one `cmd`, signed md5(username + key + "pricelist"). */
async function readOne(account: ProviderAccount, cmd: 'prepaid' | 'pasca', timeoutMs: number): Promise<PriceListRead> {
  const body = { cmd, username: account.username, sign: digiflazzSign(account.username, account.apiKey, 'pricelist') }
  const reply = await postUpstream(`${account.baseUrl}/price-list`, { json: body }, timeoutMs, { read: true })
  const data = reply.kind === 'answer' && isRecord(reply.body) ? reply.body.data : undefined
  if (reply.kind === 'unreachable' || reply.status >= 400 || !isList(data)) {
    const said = isRecord(data) ? [text(data.rc) && `rc ${text(data.rc)}`, text(data.message)].filter(Boolean).join(' ') : undefined
    return { ok: false, reason: `${cmd} list: ${failureOf(reply, said)}` }
  }
  return digiflazzListOf(data, cmd === 'pasca')
}

/** A `/price-list` answer's entries as a sync keeps them; entries without a code, name or price are skipped. */
export function digiflazzListOf(data: unknown[], postpaid: boolean): PriceListRead & { ok: true } {
  const products = data.map((entry) => productOf(entry, postpaid))
  const found = products.filter((p): p is ListedProduct => p !== undefined)
  return { ok: true, products: found, skipped: products.length - found.length }
}

/** Both lists, prepaid then pasca; either failing fails the read, so no half list is ever applied. */
export async function readDigiflazzPriceList(account: ProviderAccount, timeoutMs: number): Promise<PriceListRead> {
  const prepaid = await readOne(account, 'prepaid', timeoutMs)
  if (!prepaid.ok) return prepaid
  const pasca = await readOne(account, 'pasca', timeoutMs)
  if (!pasca.ok) return pasca
  return { ok: true, products: [...prepaid.products, ...pasca.products], skipped: prepaid.skipped + pasca.skipped }
}
