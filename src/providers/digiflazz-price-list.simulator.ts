import { steerablePriceList } from './price-list.simulator.js'

type Prepaid = {
  product_name: string
  category: string
  brand: string
  type: string
  seller_name: string
  price: number
  buyer_sku_code: string
  buyer_product_status: boolean
  seller_product_status: boolean
  unlimited_stock: boolean
  stock: number
  multi: boolean
  start_cut_off: string
  end_cut_off: string
  desc: string
}
type Pasca = {
  product_name: string
  category: string
  brand: string
  seller_name: string
  admin: number
  commission: number
  buyer_sku_code: string
  buyer_product_status: boolean
  seller_product_status: boolean
  desc: string
}

/** A prepaid entry as Digiflazz lists it: on at buyer and seller, unlimited, no cut-off window. */
export const prepaidEntry = (sku: string, name: string, category: string, brand: string, price: number): Prepaid => ({
  product_name: name,
  category,
  brand,
  type: 'Umum',
  seller_name: 'SIMULATOR',
  price,
  buyer_sku_code: sku,
  buyer_product_status: true,
  seller_product_status: true,
  unlimited_stock: true,
  stock: 0,
  multi: true,
  start_cut_off: '0:0',
  end_cut_off: '0:0',
  desc: '-',
})
const pasca = (sku: string, name: string, brand: string, admin: number): Pasca => ({
  product_name: name,
  category: 'Pascabayar',
  brand,
  seller_name: 'SIMULATOR',
  admin,
  commission: 500,
  buyer_sku_code: sku,
  buyer_product_status: true,
  seller_product_status: true,
  desc: '-',
})

/** The simulator's `/price-list` answers, prepaid and pasca, with the demo's codes among them. */
export function digiflazzPriceLists() {
  return {
    prepaid: steerablePriceList('buyer_sku_code', [
      prepaidEntry('ml86', 'MOBILE LEGENDS 86 Diamonds', 'Games', 'MOBILE LEGENDS', 19_500),
      prepaidEntry('ml172', 'MOBILE LEGENDS 172 Diamonds', 'Games', 'MOBILE LEGENDS', 38_900),
      prepaidEntry('ff140', 'FREE FIRE 140 Diamonds', 'Games', 'FREE FIRE', 18_200),
      prepaidEntry('tsel10', 'Telkomsel 10.000', 'Pulsa', 'TELKOMSEL', 10_150),
      prepaidEntry('tsel25', 'Telkomsel 25.000', 'Pulsa', 'TELKOMSEL', 24_900),
      prepaidEntry('pln20', 'PLN 20.000', 'PLN', 'PLN', 20_150),
      prepaidEntry('dana50', 'DANA 50.000', 'E-Money', 'DANA', 50_200),
    ]),
    pasca: steerablePriceList('buyer_sku_code', [
      pasca('pln', 'PLN Pascabayar', 'PLN PASCABAYAR', 2_500),
      pasca('bpjs', 'BPJS Kesehatan', 'BPJS KESEHATAN', 2_500),
    ]),
  }
}
export type DigiflazzPriceLists = ReturnType<typeof digiflazzPriceLists>

/** POST /price-list with a checked signature: the list `cmd` names, or the steered error. */
export function answerPriceList(lists: DigiflazzPriceLists, cmd: unknown): { status: number; body: object } {
  const list = cmd === 'prepaid' ? lists.prepaid : cmd === 'pasca' ? lists.pasca : undefined
  if (!list) return { status: 400, body: { data: { rc: '40', message: 'cmd harus prepaid atau pasca' } } }
  const read = list.read()
  if ('failure' in read) return { status: read.failure.httpStatus, body: { data: { rc: '83', message: read.failure.message } } }
  return { status: 200, body: { data: read.list } }
}
