import crypto from 'node:crypto'

/**
 * The simulator's postpaid bills (inq-pasca, pay-pasca, status-pasca on POST /transaction), by the
 * last character of the customer number, as its prepaid test customers:
 *   …2 a bill whose payment fails; …3 a bill whose payment is pending, then paid when its status is
 *   asked; …4 two months' bills, the older with a late fee; …5 no bill (rc 60); …6 a wrong customer
 *   number (rc 54); …7 a bill whose late fee grows by Rp 1,000 at every inquiry; …8 a bill of
 *   100,000 whose provider fee is 10,500 (its price, 110,000, is above what a small admin fee of ours
 *   charges: the floor's test customer); anything else one bill, paid at once.
 */
export type PostpaidCommand = 'inq-pasca' | 'pay-pasca' | 'status-pasca'
export const POSTPAID_COMMANDS: readonly string[] = ['inq-pasca', 'pay-pasca', 'status-pasca']

type Period = { periode: string; nilai_tagihan: number; admin: number; denda: number }
type Bill = {
  ref_id: string
  customer_no: string
  buyer_sku_code: string
  periods: Period[]
  state: 'unpaid' | 'pending' | 'paid' | 'failed'
}

// The provider's own admin fee per bill, and what it keeps of it for itself.
const PROVIDER_ADMIN = 2_500
const DEAR_ADMIN = 10_500
const PROVIDER_COMMISSION = 500

/** YYYYMM of the month `back` months before this one (a bill is for a past month). */
function monthBefore(back: number): string {
  const now = new Date()
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1))
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`
}

export function postpaidBills() {
  const bills = new Map<string, Bill>()
  // Inquiries per customer number: …7's late fee grows with them.
  const asked = new Map<string, number>()

  const periodsFor = (customerNo: string): Period[] => {
    const last = customerNo.trim().slice(-1)
    if (last === '4')
      return [
        { periode: monthBefore(2), nilai_tagihan: 120_000, admin: PROVIDER_ADMIN, denda: 5_000 },
        { periode: monthBefore(1), nilai_tagihan: 150_000, admin: PROVIDER_ADMIN, denda: 0 },
      ]
    if (last === '8') return [{ periode: monthBefore(1), nilai_tagihan: 100_000, admin: DEAR_ADMIN, denda: 0 }]
    const late = last === '7' ? 1_000 * (asked.get(customerNo) ?? 0) : 0
    return [{ periode: monthBefore(1), nilai_tagihan: 150_000, admin: PROVIDER_ADMIN, denda: late }]
  }

  const answerOf = (b: Bill, rc: string, status: string, message: string) => {
    const total = b.periods.reduce((sum, p) => sum + p.nilai_tagihan + p.denda + p.admin, 0)
    return {
      ref_id: b.ref_id,
      customer_no: b.customer_no,
      customer_name: `PELANGGAN ${b.customer_no.slice(-4)}`,
      buyer_sku_code: b.buyer_sku_code,
      admin: b.periods.reduce((sum, p) => sum + p.admin, 0),
      message,
      status,
      rc,
      sn: b.state === 'paid' ? crypto.createHash('sha1').update(b.ref_id).digest('hex').slice(0, 24).toUpperCase() : '',
      buyer_last_saldo: 1_000_000,
      price: total - PROVIDER_COMMISSION * b.periods.length,
      selling_price: total,
      desc: { tarif: 'R1', daya: 1300, lembar_tagihan: b.periods.length, detail: b.periods.map((p) => ({ ...p })) },
    }
  }
  const notFound = (ref_id: string) => ({ ref_id, rc: '50', status: 'Gagal', message: 'Transaksi Tidak Ditemukan', sn: '' })

  const inquire = (req: { ref_id: string; customer_no: string; buyer_sku_code: string }) => {
    const last = req.customer_no.trim().slice(-1)
    const base = { ref_id: req.ref_id, customer_no: req.customer_no, buyer_sku_code: req.buyer_sku_code, sn: '' }
    if (last === '5') return { ...base, rc: '60', status: 'Gagal', message: 'Tagihan belum tersedia' }
    if (last === '6') return { ...base, rc: '54', status: 'Gagal', message: 'Nomor Tujuan Salah' }
    asked.set(req.customer_no, (asked.get(req.customer_no) ?? 0) + 1)
    // A ref_id already inquired is answered with its bill, never a new one.
    let bill = bills.get(req.ref_id)
    if (!bill) bills.set(req.ref_id, (bill = { ...req, periods: periodsFor(req.customer_no), state: 'unpaid' }))
    return answerOf(bill, '00', 'Sukses', 'Transaksi Sukses')
  }

  const pay = (ref_id: string) => {
    const bill = bills.get(ref_id)
    if (!bill) return notFound(ref_id)
    if (bill.state === 'unpaid') {
      const last = bill.customer_no.trim().slice(-1)
      bill.state = last === '2' ? 'failed' : last === '3' ? 'pending' : 'paid'
    }
    return stateOf(bill)
  }

  const status = (ref_id: string) => {
    const bill = bills.get(ref_id)
    if (!bill || bill.state === 'unpaid') return notFound(ref_id)
    // A pending payment is found paid when its status is asked.
    if (bill.state === 'pending') bill.state = 'paid'
    return stateOf(bill)
  }

  const stateOf = (bill: Bill) =>
    bill.state === 'paid'
      ? answerOf(bill, '00', 'Sukses', 'Transaksi Sukses')
      : bill.state === 'pending'
        ? answerOf(bill, '03', 'Pending', 'Transaksi Pending')
        : answerOf(bill, '02', 'Gagal', 'Transaksi Gagal')

  return {
    bills,
    answer(command: PostpaidCommand, req: { ref_id: string; customer_no: string; buyer_sku_code: string }) {
      return command === 'inq-pasca' ? inquire(req) : command === 'pay-pasca' ? pay(req.ref_id) : status(req.ref_id)
    },
  }
}
