import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { launchChromium } from '../../../test/browser.js'
import { PASSWORD, invite } from '../../../test/dashboard.js'
import { createAutoItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { freePort } from '../../../test/server-process.js'

// docs/design.md §14 on a phone (390 px): a staff member opens a complaint from a transaction's page,
// a refusal shows beside its field with the message kept, and the thread's page fits the screen.

const browser = await launchChromium('dashboard-complaints', { viewport: { width: 390, height: 844 } })

/** Run in the page: whether it scrolls sideways. */
const sideways = () => document.documentElement.scrollWidth > window.innerWidth

describe('complaints in the dashboard, in a browser', () => {
  it.skipIf(!browser)('opens a complaint on a line from a phone', { timeout: 120_000 }, async () => {
    const port = await freePort()
    const { app } = await createTestApp({ PUBLIC_URL: `http://127.0.0.1:${port}` })
    await app.listen({ port, host: '127.0.0.1' })
    const base = `http://127.0.0.1:${port}`
    const shop = await createReseller(app, { name: 'Toko Ponsel', balance: 500_000 })
    const item = await createAutoItem(app, 2, { product_name: 'Voucher Google Play', name: 'IDR 50.000', price: 50_000 })
    const invoice = (await buy(app, shop, 'phone-1', [{ item_id: item.id, quantity: 1 }])).json().data.invoice as string
    const { path: invitePath } = await invite(app, shop.id, 'staf@tokoponsel.example', 'staff')
    const page = await browser!.newPage()
    try {
      await page.goto(`${base}${invitePath}`)
      await page.fill('input[name=password]', PASSWORD)
      await page.fill('input[name=password_again]', PASSWORD)
      await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('#save-password')])

      await page.goto(`${base}/dashboard/transactions/${invoice}`)
      const form = page.locator('details.open-complaint')
      await form.locator('summary').click()
      const line = await form.locator('input[name=order_item_id]').inputValue()
      await page.selectOption(`#open-${line}-reason`, 'invalid_code')
      // Only spaces: the browser sends it (required is met), the page says what to write, keeping the choice.
      await page.fill(`#open-${line}-message`, '   ')
      await Promise.all([page.waitForLoadState('load'), page.click(`#open-${line}-send`)])
      expect(await page.locator(`#open-${line}-message-error`).innerText()).toContain('Tulis pesan')
      expect(await page.locator(`#open-${line}-reason`).inputValue()).toBe('invalid_code')
      expect(await page.evaluate(sideways)).toBe(false)

      await page.fill(`#open-${line}-message`, 'Kode voucher ditolak saat ditukar.')
      await Promise.all([page.waitForURL(/\/dashboard\/complaints\/\d+\?done=opened$/), page.click(`#open-${line}-send`)])
      expect(await page.locator('#notice').innerText()).toContain('Komplain dikirim')
      expect(await page.locator('ol.thread').innerText()).toContain('Kode voucher ditolak saat ditukar.')
      expect(await page.locator('#complaint-line').innerText()).toBe('Voucher Google Play · IDR 50.000')
      expect(await page.evaluate(sideways)).toBe(false)

      await Promise.all([page.waitForURL(`${base}/dashboard/complaints`), page.click('nav a[href="/dashboard/complaints"]')])
      expect(await page.locator('#complaints').innerText()).toContain(invoice)
      expect(await page.evaluate(sideways)).toBe(false)
    } finally {
      await page.close()
      await app.close()
    }
  })
})
