import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { routeTable } from '../../../test/admin-routes.js'
import { signedIn } from '../../../test/console.js'
import { sweepGateway, sweepWorld } from '../../../test/sweep-world.js'
import { startUpstreams } from '../../../test/upstreams.js'
import { EN } from './texts.en.js'
import { ACTIVITY_EN } from './texts/activity.en.js'
import { CATALOG_EN } from './texts/catalog.en.js'
import { CORE_EN } from './texts/core.en.js'
import { MONEY_EN } from './texts/money.en.js'
import { PRICING_EN } from './texts/pricing.en.js'
import { SALES_EN } from './texts/sales.en.js'
import { TEAM_EN } from './texts/team.en.js'
import { codeOf, operatorWithPassword, secretOnPage, signInWithPassword } from '../../../test/console-team.js'

// Every console page in Bahasa Indonesia (./texts.ts): each GET page of the route table, in a store with
// something on every page, answers in Indonesian with none of the English words a text left out would show.
const up = await startUpstreams()
afterAll(() => up.close())
const { app, ctx } = await createTestApp({}, {}, { paymentGateway: sweepGateway })
const world = await sweepWorld(app, ctx, up)
const operator = await signedIn(app)
await operator.get('/console?lang=id')

/** Every GET route under /console the app serves (`/console/items/:id`), from its route table. */
const consolePageRoutes = (): string[] =>
  routeTable(app)
    .filter((route) => route.startsWith('GET /console'))
    .map((route) => route.slice('GET '.length))

const level = 'reseller'
/** A page for each route, on the sweep's rows; the routes that are no page of their own are named with why. */
const PAGES: Record<string, string | null> = {
  '/console': '/console',
  '/console/': null, // redirects to /console
  '/console/*': null, // the not-found page: asked below
  '/console/assets/htmx.min.js': null,
  '/console/assets/console.css': null,
  '/console/openapi.json': null,
  '/console/audit.csv': null, // a download
  '/console/overview/figures': '/console/overview/figures',
  '/console/sign-in': null, // a signed-in visitor is sent on: the sign-in test below
  '/console/sign-in/code': null, // only between password and second factor
  '/console/enrol': null, // only for a person setting up a second factor
  '/console/first-owner': null, // only while the store has no operator
  '/console/invite/:token': '/console/invite/no-such-token',
  '/console/me': '/console/me',
  '/console/team': '/console/team',
  '/console/team/:id': `/console/team/${world.target.id}`,
  '/console/resellers': '/console/resellers',
  '/console/resellers/:id': `/console/resellers/${world.a.id}`,
  '/console/resellers/:id/mutations': `/console/resellers/${world.a.id}/mutations`,
  '/console/resellers/:id/audit': `/console/resellers/${world.a.id}/audit`,
  '/console/resellers/:id/deliveries': `/console/resellers/${world.a.id}/deliveries`,
  '/console/webhook-deliveries': '/console/webhook-deliveries',
  '/console/orders': '/console/orders',
  '/console/orders/:id': `/console/orders/${world.orders.send.id}`,
  '/console/dispatches': '/console/dispatches?status=review',
  '/console/complaints': '/console/complaints',
  '/console/complaints/:id': `/console/complaints/${world.complaints.recheck}`,
  '/console/items': '/console/items',
  '/console/items/:id': `/console/items/${world.items.h2h}`,
  '/console/items/:id/sources': `/console/items/${world.items.h2h}/sources`,
  '/console/categories': '/console/categories',
  '/console/categories/:id': `/console/categories/${world.category}`,
  '/console/products': '/console/products',
  '/console/products/:id': `/console/products/${world.product}`,
  '/console/providers': '/console/providers',
  '/console/providers/:code/balance': `/console/providers/${world.provider}/balance`,
  '/console/suppliers': `/console/suppliers?provider=${world.provider}`,
  '/console/pricing': '/console/pricing',
  '/console/price-levels': '/console/price-levels',
  '/console/price-levels/:code': `/console/price-levels/${level}`,
  '/console/margin': '/console/margin',
  '/console/margin-watch': '/console/margin-watch',
  '/console/topups': '/console/topups',
  '/console/channels': '/console/channels',
  '/console/channels/:code': `/console/channels/${world.bank.channel}`,
  '/console/bank-mutations': '/console/bank-mutations',
  '/console/audit': '/console/audit',
  '/console/alerts': '/console/alerts',
  '/console/alert-channels': '/console/alert-channels',
}

// Words an English text shows and Indonesian never does (nor the sweep's rows, codes or statuses):
// whole words, as written on buttons, headings, labels and sentences.
const ENGLISH = [
  'Save',
  'Delete',
  'Remove',
  'Create',
  'Edit',
  'Search',
  'Find',
  'Change',
  'Invite',
  'Revoke',
  'Approve',
  'Reject',
  'Price',
  'Name',
  'Amount',
  'Balance',
  'Reason',
  'Orders',
  'Items',
  'Products',
  'Category',
  'Channel',
  'Sources',
  'Description',
  'Created',
  'Changed',
  'Minimum',
  'Import',
  'Switch',
  'Show',
  'Sync',
  'Read now',
  'Redeliver',
  'Match',
  'Ignore',
  'Webhook deliveries',
  'Second factor',
  'Email to',
  'next page',
  'previous page',
  'the',
  'and',
  'with',
  'when',
  'every',
  'from',
  'yet',
  'none',
  'never',
  'for',
  'are',
  'this',
  'that',
  'its',
  'their',
  'your',
  'you',
  'Back',
  'New',
  'All',
  'Add',
  'Set',
  'Send',
  'Cancel',
  'Sign',
  'Date',
  'Account',
  'Order',
  'Line',
  'Customer',
  'Target',
  'Attempts',
  'Next',
  'Subject',
  'History',
  'Open',
  'Cost',
  'Revenue',
  'Loss',
  'Cause',
  'Applied',
  'Listed',
  'Now',
  'Changes',
  'Priority',
  'Role',
  'Since',
  'Check',
  'Lines',
  'Qty',
  'Upstream results',
  'Reply',
  'Refund',
  'Resend',
  'Delivery',
  'Ledger',
  'Thread',
  'Due',
  'overdue',
  'Kind',
  'Stock',
  'Catalog',
  'Suppliers',
  'Pricing',
  'Channels',
  'Team',
  'Overview',
  'Top-ups',
  'Complaints',
]
/** What a person reads: the text between tags, and the placeholders, titles, labels and confirmations. */
function visibleText(html: string): string {
  // The language switch speaks the other language on purpose.
  const body = html.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>|<a [^>]*id="switch-language"[^>]*>[^<]*<\/a>/g, ' ')
  const attributes = [...body.matchAll(/(?:placeholder|title|aria-label|onsubmit)="([^"]*)"/g)].map((m) => m[1])
  const text = body.replace(/<[^>]*>/g, ' ')
  return [text, ...attributes].join(' ').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&')
}
export const englishIn = (html: string) =>
  ENGLISH.filter((word) => new RegExp(`(^|[^\\p{L}\\p{N}_-])${word}($|[^\\p{L}\\p{N}_-])`, 'u').test(visibleText(html)))

const h1 = (body: string) =>
  /<h1[^>]*>([\s\S]*?)<\/h1>/
    .exec(body)?.[1]
    ?.replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim()

// Each page group's heading, and a sample of its buttons, table headers and labels, as the catalogue says them.
const SAMPLES: [string, string, string[]][] = [
  ['/console/price-levels', 'Level harga', ['<th>Kode</th>', '<button>Buat level</button>']],
  [`/console/price-levels/${level}`, 'Level harga · Reseller reseller bawaan', ['<button>Simpan aturan</button>', 'Tambah baris kosong']],
  [
    `/console/suppliers?provider=${world.provider}`,
    'Pemasok',
    ['<th>Sinkron terakhir</th>', '<button>Setujui</button>', '<button>Tolak</button>'],
  ],
  ['/console/products', 'Produk', ['<button>Buat produk</button>', '<th>Gambar</th>']],
  [
    `/console/products/${world.product}`,
    'Sweep Games · Sweep Voucher',
    ['<button class="danger">Hapus produk ini</button>', 'Item baru untuk produk ini'],
  ],
  ['/console/pricing', 'Aturan harga', ['<th>Cakupan</th>', '<button>Simpan aturan</button>']],
  ['/console/margin', 'Margin', ['<small>Pendapatan</small>', '<th class="num">Modal tak diketahui</th>']],
  ['/console/margin-watch', 'Pantau margin', ['<h2>Terjual di bawah batas</h2>', '<th>Sebab</th>']],
  ['/console/team', 'Tim', ['<th>Faktor kedua</th>', '<button id="invite">Undang</button>']],
  [
    `/console/team/${world.target.id}`,
    world.target.email,
    ['<h2 id="tokens">Token API</h2>', '<button class="danger">Reset faktor kedua</button>'],
  ],
  ['/console/me', 'Akun Anda', ['Anda masuk dengan admin token']],
  ['/console/channels', 'Kanal pembayaran', ['<button>Impor dari payment gateway</button>', '<th class="num">Rentang</th>']],
  [`/console/channels/${world.bank.channel}`, `Kanal ${world.bank.channel} aktif`, ['<button>Simpan kanal</button>']],
  ['/console/bank-mutations', 'Mutasi bank', ['<button>Cocokkan</button>', '<button>Abaikan</button>', '<th>Rekening</th>']],
  [`/console/resellers/${world.a.id}/mutations`, `Sweep A: mutasi`, ['<th class="num">Saldo sesudah</th>']],
  [`/console/resellers/${world.a.id}/audit`, `Sweep A: pembukuan`, ['<th>Pemeriksaan</th>', 'konsisten']],
  ['/console/audit', 'Log audit', ['Unduh CSV', '<th>Pelaku</th>']],
  ['/console/alerts', 'Peringatan', ['<h2>Riwayat</h2>', 'Tidak ada peringatan terbuka.']],
  ['/console/alert-channels', 'Kanal peringatan', ['Email ke', 'Id chat Telegram']],
  [
    `/console/items/${world.items.h2h}/sources`,
    `Item ${world.items.h2h} · sumber`,
    ['<button>Simpan sumber</button>', '<th class="num">Prioritas</th>'],
  ],
  [
    `/console/items/${world.items.h2h}`,
    'Test Product · Test Item 3 aktif',
    ['<section id="level-prices"><h2>Harga per level</h2>', '>Izinkan rugi</button>'],
  ],
  [`/console/resellers/${world.a.id}/deliveries`, `Sweep A: pengiriman webhook`, ['<button>Kirim ulang</button>', '<th>Percobaan</th>']],
  ['/console/dispatches?status=review', 'Permintaan upstream: review', ['<button>Berhasil</button>', 'Gagal (refund)']],
  [
    `/console/resellers/${world.a.id}`,
    'Sweep A active',
    ['<h2 id="dashboard-users">Pengguna dashboard</h2>', '<button>Simpan pengaturan webhook</button>'],
  ],
  ['/console', 'Ringkasan', ['<small>Penjualan hari ini</small>']],
]

describe('console: every page in Bahasa Indonesia', () => {
  it('gives each page group its Indonesian heading, buttons and table headers', async () => {
    for (const [url, heading, samples] of SAMPLES) {
      const page = await operator.get(url)
      expect(page.status, url).toBe(200)
      expect(h1(page.body), url).toBe(heading)
      for (const sample of samples) expect(page.body, `${url}: ${sample}`).toContain(sample)
    }
  })

  it('says what a form made in Indonesian: an API key, an invitation link, a dashboard invite', async () => {
    await operator.get('/console/resellers')
    const made = await operator.post('/console/resellers', { name: 'Toko Baru', email: '' })
    expect([made.status, h1(made.body)]).toEqual([200, 'Reseller dibuat: Toko Baru'])
    expect(made.body).toContain('Ke halaman reseller')
    await operator.get('/console/team')
    const invited = await operator.post('/console/team/invite', { email: 'baru@team.example', name: 'Orang Baru', role: 'viewer' })
    expect([invited.status, h1(invited.body)]).toEqual([200, 'Undangan: baru@team.example'])
    expect(invited.body).toContain('Kembali ke tim')
    await operator.get(`/console/resellers/${world.b.id}`)
    const user = await operator.post(`/console/resellers/${world.b.id}/users`, { email: 'pemilik@toko.example', role: 'owner' })
    expect([user.status, h1(user.body)]).toEqual([200, `Undangan dashboard: Sweep B`])
    for (const body of [made.body, invited.body, user.body]) expect(englishIn(body), body.slice(0, 200)).toEqual([])
  })

  it('walks a new owner through sign-in in Indonesian: the second factor, the recovery codes, the code asked next time', async () => {
    const person = await operatorWithPassword(ctx, 'owner')
    const { v } = await signInWithPassword(app, person.email)
    const enrol = await v.get('/console/enrol?lang=id')
    expect([enrol.status, h1(enrol.body)]).toEqual([200, 'Pasang faktor kedua Anda'])
    const codes = await v.post('/console/enrol', { code: codeOf(secretOnPage(enrol.body)) })
    expect([codes.status, h1(codes.body)]).toEqual([200, 'Faktor kedua aktif: kode pemulihan Anda'])
    const again = (await signInWithPassword(app, person.email)).v
    const ask = await again.get('/console/sign-in/code?lang=id')
    expect([ask.status, h1(ask.body)]).toEqual([200, 'Faktor kedua'])
    const signIn = await again.get('/console/sign-in?lang=id')
    for (const body of [enrol.body, codes.body, ask.body, signIn.body]) expect(englishIn(body), body.slice(0, 200)).toEqual([])
  })

  it('composes the catalogue of groups that name no page twice (a later group would hide an earlier one)', () => {
    const groups = [CORE_EN, SALES_EN, CATALOG_EN, PRICING_EN, MONEY_EN, TEAM_EN, ACTIVITY_EN]
    expect(groups.flatMap((g) => Object.keys(g)).length).toBe(Object.keys(EN).length)
  })

  it('has a page for each GET route of the console', () => {
    const unknown = consolePageRoutes().filter((route) => !(route in PAGES))
    expect(unknown, 'console GET routes this test does not visit: add them to PAGES').toEqual([])
  })

  it('answers each page in Indonesian, with none of the English words', async () => {
    const english: Record<string, string[]> = {}
    const wrong: string[] = []
    for (const url of Object.values(PAGES)) {
      if (url === null) continue
      const page = await operator.get(url)
      // An invitation no longer open is a page of its own, answered 404.
      if (page.status !== (url.endsWith('no-such-token') ? 404 : 200)) wrong.push(`${url}: ${page.status}`)
      else if (!/^<!doctype html>\s*<html lang="id">|^<span class="provider-balance"|^\s*<div id="figures"/.test(page.body))
        wrong.push(`${url}: not a page`)
      // A text a template names wrong shows as "undefined".
      if (/undefined|NaN|\[object /.test(visibleText(page.body))) wrong.push(`${url}: a text is missing`)
      const found = englishIn(page.body)
      if (found.length) english[url] = found
    }
    expect({ wrong, english }).toEqual({ wrong: [], english: {} })
  })

  it('answers each page in English too, with no text missing (a template naming a text wrong shows "undefined")', async () => {
    const english = await signedIn(app)
    const missing: string[] = []
    for (const url of Object.values(PAGES)) {
      if (url === null) continue
      const page = await english.get(url)
      if (/undefined|NaN|\[object /.test(visibleText(page.body)) || !/<html lang="en">|^<span|^\s*<div/.test(page.body)) missing.push(url)
    }
    expect(missing).toEqual([])
  })

  it('finds the English words of a page left in English (the check can fail)', async () => {
    const page = await operator.get('/console/orders?lang=en')
    expect(englishIn(page.body)).toEqual(expect.arrayContaining(['Find', 'Orders', 'and']))
    await operator.get('/console?lang=id')
  })
})
