import crypto from 'node:crypto'
import type { FastifyPluginAsync } from 'fastify'
import { digiflazzSign } from './digiflazz.js'
import { answerPriceList, digiflazzPriceLists } from './digiflazz-price-list.simulator.js'
import { POSTPAID_COMMANDS, postpaidBills, type PostpaidCommand } from './digiflazz-postpaid.simulator.js'
import { SIMULATOR_CREDENTIALS, steeringOf, type Steering } from './simulator-steering.js'

type SimTransaction = {
  ref_id: string
  customer_no: string
  buyer_sku_code: string
  steering: Steering
  looks: number
  /** What it charges: the product's price on the simulator's list when first seen; unknown for a product not on it. */
  price?: number
}
type Body = Record<string, unknown>
type SimRequest = { ref_id: string; customer_no: string; buyer_sku_code: string; qty?: number; max_price?: number; commands?: string }

/**
 * A Digiflazz-compatible buyer API (POST /transaction, its postpaid `commands` included, POST
 * /inquiry-pln, POST /price-list from steerable lists) for the demo and tests, in memory. A ref_id it has seen is answered with that transaction's state, never a new one.
 * A transaction is charged its product's price on the prepaid list (answered as `price`); a
 * `max_price` below that price is refused as Digiflazz does, rc 69, and no transaction is made.
 * A product not on the list, or an open denomination's request (`qty`), has no known price: no
 * `price` in the answer, and max_price never refuses it.
 */
export function digiflazzSimulator(credentials: { username: string; apiKey: string } = SIMULATOR_CREDENTIALS) {
  const transactions = new Map<string, SimTransaction>()
  /** Every transaction request received, in order: tests count upstream orders and checks here. */
  const requests: SimRequest[] = []
  /**
   * Answers steered by product, over the target's steering: `fail` (rc 40), `known` (rc 49, the ref
   * already known), `http500` (a server error). Tests steer one supplier product while another serves.
   */
  const skuSteering = new Map<string, 'fail' | 'known' | 'http500'>()
  /**
   * The operator's deposit (POST /cek-saldo): a success is paid from it; a transaction dearer than
   * what is left fails with rc 44 ("Saldo tidak cukup") and makes no transaction. Tests set `amount`.
   */
  const deposit = { amount: 100_000_000 }
  const postpaid = postpaidBills()
  const priceLists = digiflazzPriceLists()
  const signedBy = (body: Body, salt: unknown) =>
    body.username === credentials.username && body.sign === digiflazzSign(credentials.username, credentials.apiKey, String(salt))

  const answer = (t: SimTransaction) => {
    t.looks++
    const base = {
      ref_id: t.ref_id,
      customer_no: t.customer_no,
      buyer_sku_code: t.buyer_sku_code,
      ...(t.price !== undefined && { price: t.price }),
      buyer_last_saldo: deposit.amount,
      tele: '',
      wa: '',
    }
    if (t.steering === 'fail') return { ...base, status: 'Gagal', rc: '40', message: 'Nomor tujuan salah', sn: '' }
    if (t.steering === 'later' && t.looks === 1) return { ...base, status: 'Pending', rc: '03', message: 'Transaksi Pending', sn: '' }
    const sn = `SN${crypto.createHash('sha1').update(t.ref_id).digest('hex').slice(0, 16).toUpperCase()}`
    return { ...base, status: 'Sukses', rc: '00', message: 'Transaksi Sukses', sn }
  }

  const plugin: FastifyPluginAsync = async (app) => {
    app.post('/transaction', { schema: { hide: true } }, async (request, reply) => {
      const body = (request.body ?? {}) as Body
      const { ref_id, customer_no, buyer_sku_code } = body
      if (typeof ref_id !== 'string' || typeof customer_no !== 'string' || typeof buyer_sku_code !== 'string') {
        return reply.status(400).send({ data: { rc: '40', status: 'Gagal', message: 'Parameter tidak lengkap' } })
      }
      if (!signedBy(body, ref_id))
        return reply.status(400).send({ data: { ref_id, rc: '41', status: 'Gagal', message: 'Signature Anda salah' } })
      if (typeof body.commands === 'string' && POSTPAID_COMMANDS.includes(body.commands)) {
        requests.push({ ref_id, customer_no, buyer_sku_code, commands: body.commands })
        return { data: postpaid.answer(body.commands as PostpaidCommand, { ref_id, customer_no, buyer_sku_code }) }
      }
      // An open denomination's nominal, when sent, is a positive whole number of units.
      const { qty } = body
      if (qty !== undefined && !(typeof qty === 'number' && Number.isSafeInteger(qty) && qty > 0))
        return reply.status(400).send({ data: { ref_id, rc: '40', status: 'Gagal', message: 'Nominal tidak valid' } })
      const { max_price: maxPrice } = body
      if (maxPrice !== undefined && !(typeof maxPrice === 'number' && Number.isSafeInteger(maxPrice) && maxPrice >= 0))
        return reply.status(400).send({ data: { ref_id, rc: '40', status: 'Gagal', message: 'max_price tidak valid' } })
      requests.push({
        ref_id,
        customer_no,
        buyer_sku_code,
        ...(qty !== undefined && { qty }),
        ...(maxPrice !== undefined && { max_price: maxPrice }),
      })
      const bySku = skuSteering.get(buyer_sku_code)
      if (bySku === 'http500') return reply.status(500).send({ message: 'Internal Server Error' })
      if (bySku === 'known')
        return { data: { ref_id, customer_no, buyer_sku_code, status: 'Gagal', rc: '49', message: 'Ref ID tidak unik', sn: '' } }
      let t = transactions.get(ref_id)
      if (!t) {
        const price = qty === undefined ? priceLists.prepaid.listed(buyer_sku_code)?.price : undefined
        // Dearer than the buyer allows: refused before any transaction exists (a later send is judged anew).
        if (price !== undefined && maxPrice !== undefined && price > maxPrice)
          return {
            data: {
              ref_id,
              customer_no,
              buyer_sku_code,
              price,
              status: 'Gagal',
              rc: '69',
              message: 'Harga seller lebih besar dari ketentuan harga Buyer',
              sn: '',
            },
          }
        const steering = bySku === 'fail' ? 'fail' : steeringOf(customer_no)
        const charge = steering === 'fail' ? 0 : (price ?? 0)
        if (charge > deposit.amount)
          return {
            data: { ref_id, customer_no, buyer_sku_code, status: 'Gagal', rc: '44', message: 'Saldo tidak cukup', sn: '' },
          }
        deposit.amount -= charge
        transactions.set(ref_id, (t = { ref_id, customer_no, buyer_sku_code, steering, looks: 0, price }))
      }
      return { data: answer(t) }
    })
    app.post('/cek-saldo', { schema: { hide: true } }, async (request, reply) => {
      const body = (request.body ?? {}) as Body
      if (body.cmd !== 'deposit' || !signedBy(body, 'depo'))
        return reply.status(400).send({ data: { rc: '41', message: 'Signature Anda salah' } })
      return { data: { deposit: deposit.amount } }
    })
    app.post('/price-list', { schema: { hide: true } }, async (request, reply) => {
      const body = (request.body ?? {}) as Body
      if (!signedBy(body, 'pricelist')) return reply.status(400).send({ data: { rc: '41', message: 'Signature Anda salah' } })
      const answer = answerPriceList(priceLists, body.cmd)
      return reply.status(answer.status).send(answer.body)
    })
    app.post('/inquiry-pln', { schema: { hide: true } }, async (request, reply) => {
      const body = (request.body ?? {}) as Body
      const customerNo = typeof body.customer_no === 'string' ? body.customer_no : ''
      if (!signedBy(body, customerNo))
        return reply.status(400).send({ data: { rc: '41', status: 'Gagal', message: 'Signature Anda salah' } })
      if (steeringOf(customerNo) === 'fail')
        return { data: { customer_no: customerNo, rc: '40', status: 'Gagal', message: 'Nomor meter/IDPel salah' } }
      return {
        data: {
          customer_no: customerNo,
          meter_no: customerNo,
          subscriber_id: customerNo,
          name: `PELANGGAN ${customerNo.slice(-4)}`,
          segment_power: 'R1 /000001300',
        },
      }
    })
  }
  return { plugin, transactions, requests, bills: postpaid.bills, priceLists, skuSteering, deposit }
}
export type DigiflazzSimulator = ReturnType<typeof digiflazzSimulator>
