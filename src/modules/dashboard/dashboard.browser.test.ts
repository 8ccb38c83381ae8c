import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { PASSWORD, invite } from '../../../test/dashboard.js'
import { createAutoItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { totpCode, totpStep } from '../team/index.js'
import { startReceiver } from '../../../test/receiver.js'
import { freePort } from '../../../test/server-process.js'

// A reseller's owner in a real browser (docs/design.md §13): invite → password → sign in → see a purchase →
// rotate the key → allow-list → webhook with a test send; a form without its token refused; every
// page without sideways scrolling at phone size; two-step verification turned on and asked at
// sign-in. DASHBOARD_SHOTS=<dir> writes the docs' screenshots.
const EXECUTABLE = '/usr/bin/chromium'
const SHOTS = process.env.DASHBOARD_SHOTS ? path.resolve(process.env.DASHBOARD_SHOTS) : undefined
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'dashboard-'))
const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 800 }

async function launch(): Promise<BrowserContext | undefined> {
  try {
    return await chromium.launchPersistentContext(profile, {
      executablePath: EXECUTABLE,
      headless: true,
      timeout: 60_000,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    })
  } catch (error) {
    if (process.env.CI) throw error
    console.warn(`dashboard browser test skipped: Chromium cannot start at ${EXECUTABLE}: ${(error as Error).message.split('\n')[0]}`)
    return undefined
  }
}

const browser = await launch()
afterAll(async () => {
  await browser?.close()
  fs.rmSync(profile, { recursive: true, force: true })
})

/** Run in the page (no imports: Playwright sends its source): what a person on a phone would notice. */
function layoutProblems(): string[] {
  const problems: string[] = []
  if (document.documentElement.scrollWidth > window.innerWidth) {
    problems.push(`scrolls sideways: ${document.documentElement.scrollWidth} > ${window.innerWidth}`)
  }
  const text = document.body.innerText
  const iso = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}[^\s]*/.exec(text)
  if (iso) problems.push(`raw ISO time: ${iso[0]}`)
  for (const table of document.querySelectorAll('main table')) {
    if (table.querySelectorAll('tr').length < 2) problems.push(`empty table without a word: ${table.id}`)
  }
  // What a row is for: its amounts, its status and its buttons, each wholly on the screen (a table
  // scrolling inside its box hides them without scrolling the page).
  const vital = document.querySelectorAll('main td.num, main td.money, main td .tag, main td button, main td.action a')
  for (const cell of vital) {
    const box = cell.getBoundingClientRect()
    if (box.width > 0 && (box.left < 0 || box.right > window.innerWidth + 0.5)) {
      const table = cell.closest('table')?.id ?? '?'
      problems.push(
        `${table}: "${(cell as HTMLElement).innerText.trim().slice(0, 30)}" off the screen (${Math.round(box.left)}..${Math.round(box.right)})`,
      )
    }
  }
  if (document.documentElement.scrollHeight > 3000) problems.push(`too tall: ${document.documentElement.scrollHeight} px`)
  return problems
}

async function check(page: Page, base: string, paths: string[]): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {}
  for (const p of paths) {
    const res = await page.goto(`${base}${p}`)
    const problems = await page.evaluate(layoutProblems)
    if (!res || res.status() !== 200) problems.push(`answered ${res?.status()}`)
    if (problems.length) found[p] = problems
  }
  return found
}

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true })
}

describe('the reseller dashboard in a browser', () => {
  it.skipIf(!browser)('takes an invited owner from password to key, allow-list and webhook', { timeout: 300_000 }, async () => {
    if (SHOTS) fs.mkdirSync(SHOTS, { recursive: true })
    const port = await freePort()
    const { app, ctx } = await createTestApp({ PUBLIC_URL: `http://127.0.0.1:${port}` })
    await app.listen({ port, host: '127.0.0.1' })
    const base = `http://127.0.0.1:${port}`
    const receiver = await startReceiver()
    const shop = await createReseller(app, { name: 'Toko Maju Jaya', balance: 1_250_000 })
    const item = await createAutoItem(app, 3, {
      category: 'Voucher Game',
      product_name: 'Steam Wallet',
      name: 'IDR 120.000',
      price: 125_000,
    })
    const { path: invitePath } = await invite(app, shop.id, 'pemilik@tokomaju.example')

    const page = await browser!.newPage()
    page.on('dialog', (dialog) => void dialog.accept())
    try {
      await page.setViewportSize(PHONE)
      // The invite link sets the password and signs in.
      await page.goto(`${base}${invitePath}`)
      expect(await page.locator('main').innerText()).toContain('pemilik@tokomaju.example')
      await page.fill('input[name=password]', PASSWORD)
      await page.fill('input[name=password_again]', PASSWORD)
      await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('#save-password')])
      expect(await page.locator('#balance').innerText()).toBe('Rp 1.250.000')
      expect(await page.locator('#orders').innerText()).toContain('Belum ada transaksi')

      // Signed out and in again with the password.
      await Promise.all([page.waitForURL(`${base}/dashboard/sign-in`), page.click('#sign-out')])
      await page.fill('input[name=email]', 'pemilik@tokomaju.example')
      await page.fill('input[name=password]', PASSWORD)
      await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('#sign-in')])

      // A purchase through the API shows up, with its licenses on the detail page.
      const bought = await buy(app, shop, 'web-1', [{ item_id: item.id, quantity: 1 }])
      expect(bought.statusCode, bought.body).toBe(200)
      const invoice = bought.json().data.invoice as string
      await page.reload()
      expect(await page.locator('#balance').innerText()).toBe('Rp 1.125.000')
      await shot(page, 'home-phone')
      await page.setViewportSize(DESKTOP)
      await shot(page, 'home')
      await Promise.all([page.waitForURL(`${base}/dashboard/transactions/${invoice}`), page.click(`#orders a:has-text("${invoice}")`)])
      expect(await page.locator('pre.licenses').innerText()).toContain(`LIC-${item.id}-`)
      await shot(page, 'transaction')
      await page.goto(`${base}/dashboard/ledger`)
      await shot(page, 'ledger')

      // A new key: shown once; the old one is refused at once, the new one works.
      await page.goto(`${base}/dashboard/api-key`)
      await Promise.all([page.waitForURL(`${base}/dashboard/api-key`), page.click('#rotate-key')])
      const key = (await page.locator('#api-key').innerText()).trim()
      expect(key).toMatch(/^rk_/)
      expect((await app.inject({ method: 'GET', url: '/api/v1/balance', headers: shop.headers })).statusCode).toBe(401)
      expect((await app.inject({ method: 'GET', url: '/api/v1/balance', headers: { 'x-apikey': key } })).statusCode).toBe(200)

      // The allow-list, with the browser's own address offered.
      await page.goto(`${base}/dashboard/allow-list`)
      expect(await page.locator('#my-address').innerText()).toBe('127.0.0.1')
      await page.fill('#ip-allowlist', '203.0.113.0/24')
      await page.check('#add-mine')
      await Promise.all([page.waitForURL(`${base}/dashboard/allow-list?done=saved`), page.click('#save-allow-list')])
      expect(await page.locator('#ip-allowlist').inputValue()).toBe('203.0.113.0/24\n127.0.0.1')
      const outside = await app.inject({
        method: 'GET',
        url: '/api/v1/balance',
        headers: { 'x-apikey': key },
        remoteAddress: '198.51.100.9',
      })
      expect(outside.json().message).toBe('INVALID_IP')

      // Webhooks: a secret shown once, the URL switched on, a test send and its delivery in the log.
      await page.goto(`${base}/dashboard/webhook`)
      await Promise.all([page.waitForLoadState('load'), page.click('#new-secret')])
      expect(await page.locator('#webhook-secret').innerText()).toMatch(/^whsec_/)
      await page.fill('#callback-url', receiver.url)
      await page.check('#webhook-enabled')
      await Promise.all([page.waitForURL(`${base}/dashboard/webhook?done=saved`), page.click('#save-webhook')])
      expect(await page.locator('#webhook-state').innerText()).toBe('aktif')
      await Promise.all([page.waitForLoadState('load'), page.click('#send-test')])
      expect(await page.locator('#test-outcome').innerText()).toContain('Terkirim')
      expect(await page.locator('#deliveries').innerText()).toContain('webhook.test')
      expect(receiver.received.map((r) => r.json?.event)).toContain('webhook.test')
      await shot(page, 'webhook')

      // A form whose CSRF token was taken out is refused, and says what to do.
      await page.goto(`${base}/dashboard/api-key`)
      await page.evaluate(() => document.querySelector('#rotate-form input[name=_csrf]')!.remove())
      const [refused] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/dashboard/api-key')), page.click('#rotate-key')])
      expect(refused.status()).toBe(403)
      expect(await page.locator('#error').innerText()).toContain('Muat ulang halaman')
      expect((await app.inject({ method: 'GET', url: '/api/v1/balance', headers: { 'x-apikey': key } })).statusCode).toBe(200)

      // Suspended: the pages open with a banner, a form is refused with what to do, and nothing changes.
      const setStatus = (status: string) =>
        app.inject({
          method: 'PATCH',
          url: `/api/admin/v1/resellers/${shop.id}`,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
          payload: { status },
        })
      await setStatus('suspended')
      await page.goto(`${base}/dashboard/api-key`)
      expect(await page.locator('#suspended').isVisible()).toBe(true)
      const [suspended] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/dashboard/api-key')),
        page.click('#rotate-key'),
      ])
      expect(suspended.status()).toBe(403)
      expect(await page.locator('#suspended-refusal').innerText()).toContain('Hubungi operator')
      expect((await app.inject({ method: 'GET', url: '/api/v1/balance', headers: { 'x-apikey': key } })).statusCode).toBe(403)
      await setStatus('active')
      expect((await app.inject({ method: 'GET', url: '/api/v1/balance', headers: { 'x-apikey': key } })).statusCode).toBe(200)

      // A second person on the account, so Pengguna has a row with its Hapus button; a delivery that
      // took six attempts, so the log shows the latest and folds the others away.
      await invite(app, shop.id, 'staf@tokomaju.example', 'staff')
      const attempts = Array.from({ length: 6 }, (_, i) => ({
        attempted_at: new Date(Date.UTC(2026, 11, 6, 1, i)).toISOString(),
        status_code: i < 5 ? 503 : 200,
        duration_ms: 40 + i,
        error: i < 5 ? 'upstream answered 503 Service Unavailable' : null,
      }))
      await ctx.db
        .updateTable('webhook_deliveries')
        .set({ attempts: JSON.stringify(attempts) })
        .where('account_id', '=', shop.id)
        .execute()
      await page.setViewportSize(PHONE)
      await page.goto(`${base}/dashboard/webhook`)
      expect(await page.locator('#deliveries details.all-attempts summary').first().innerText()).toBe('6 percobaan (lihat semua)')
      expect(await page.locator('#deliveries details.all-attempts li').first().isVisible()).toBe(false)
      await shot(page, 'webhook-phone')
      await page.goto(`${base}/dashboard/ledger`)
      await shot(page, 'ledger-phone')
      await page.goto(`${base}/dashboard/transactions/${invoice}`)
      await shot(page, 'transaction-phone')
      await page.setViewportSize(DESKTOP)

      // English on the switch; every page at phone size without sideways scrolling.
      await page.goto(`${base}/dashboard`)
      await Promise.all([page.waitForURL(/lang=en/), page.click('#lang')])
      expect(await page.locator('main').innerText()).toContain('Balance')
      await page.setViewportSize(PHONE)
      const pages = [
        '/dashboard',
        '/dashboard/ledger',
        '/dashboard/transactions',
        `/dashboard/transactions/${invoice}`,
        '/dashboard/complaints',
        '/dashboard/topup',
        '/dashboard/locks',
        '/dashboard/leaderboard',
        '/dashboard/password',
      ]
      const owner = ['/dashboard/api-key', '/dashboard/allow-list', '/dashboard/webhook', '/dashboard/users']
      expect(await check(page, base, [...pages, ...owner])).toEqual({})
      await page.goto(`${base}/dashboard?lang=id`)
      expect(await check(page, base, [...pages, ...owner])).toEqual({})
      expect(await ctx.db.selectFrom('reseller_sessions').select('user_id').execute()).toHaveLength(1)
    } finally {
      await page.close()
    }
  })

  it.skipIf(!browser)(
    'lets an owner turn on two-step verification on a phone, then asks the code at sign-in',
    { timeout: 300_000 },
    async () => {
      const port = await freePort()
      const { app } = await createTestApp({ PUBLIC_URL: `http://127.0.0.1:${port}` })
      await app.listen({ port, host: '127.0.0.1' })
      const base = `http://127.0.0.1:${port}`
      const shop = await createReseller(app, { name: 'Toko Dua Langkah' })
      const { path: invitePath } = await invite(app, shop.id, 'aman@tokomaju.example')
      const page = await browser!.newPage()
      try {
        await page.setViewportSize(PHONE)
        await page.goto(`${base}${invitePath}`)
        await page.fill('input[name=password]', PASSWORD)
        await page.fill('input[name=password_again]', PASSWORD)
        await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('#save-password')])

        // From the email in the header: the account page, two-step verification off, turned on.
        await Promise.all([page.waitForURL(`${base}/dashboard/password`), page.click('#my-password')])
        expect(await page.locator('#two-step-state').innerText()).toBe('mati')
        await Promise.all([page.waitForURL(`${base}/dashboard/two-step`), page.click('#two-step-on')])
        const qr = await page.locator('#qr svg').boundingBox()
        expect(qr!.width).toBeGreaterThan(150)
        expect(await page.evaluate(layoutProblems)).toEqual([])
        await shot(page, 'two-step')
        const secret = (await page.locator('#totp-secret').innerText()).replaceAll(' ', '').trim()
        // A wrong code first: said next to the field.
        await page.fill('#code', totpCode(secret, totpStep(new Date()) + 5))
        await Promise.all([page.waitForLoadState('load'), page.click('#two-step-confirm')])
        expect(await page.locator('#code-error').isVisible()).toBe(true)
        await page.fill('#code', totpCode(secret, totpStep(new Date())))
        await Promise.all([page.waitForLoadState('load'), page.click('#two-step-confirm')])
        expect(await page.locator('#recovery-codes li').count()).toBe(10)
        expect(await page.evaluate(layoutProblems)).toEqual([])
        await shot(page, 'two-step-recovery-codes')
        await Promise.all([page.waitForURL(`${base}/dashboard/password`), page.click('#two-step-done')])
        expect(await page.locator('#two-step-state').innerText()).toBe('aktif')

        // Sign-in now asks for the code after the password; the next step's code opens the dashboard.
        await Promise.all([page.waitForURL(`${base}/dashboard/sign-in`), page.click('#sign-out')])
        await page.fill('input[name=email]', 'aman@tokomaju.example')
        await page.fill('input[name=password]', PASSWORD)
        await Promise.all([page.waitForURL(`${base}/dashboard/sign-in/code`), page.click('#sign-in')])
        expect(await page.evaluate(layoutProblems)).toEqual([])
        await shot(page, 'sign-in-code')
        await page.fill('#code', totpCode(secret, totpStep(new Date()) + 1))
        await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('#verify-code')])
        expect(await page.locator('header .who').innerText()).toContain('Toko Dua Langkah')
      } finally {
        await page.close()
      }
    },
  )
})
