import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { launchChromium } from '../../../test/browser.js'
import { admin, createReseller } from '../../../test/factory.js'
import { balanceOf } from '../../../test/factory-orders.js'
import { freePort } from '../../../test/server-process.js'

// A bank-transfer top-up's instructions page in a real headless Chromium: the total, the account, and the simulated transfer.

const browser = await launchChromium('bank-transfer-page')

describe('the bank-transfer instructions page in a browser', () => {
  it.skipIf(!browser)('shows the exact total and the account, and its Simulate transfer credits the balance once', async () => {
    const port = await freePort()
    const { app } = await createTestApp({ PUBLIC_URL: `http://127.0.0.1:${port}`, MOOTA_WEBHOOK_SECRET: 'browser-moota-secret' })
    await app.listen({ port, host: '127.0.0.1' })
    await admin(app, 'POST', '/channels', {
      code: 'BRI',
      name: 'Transfer BRI',
      type: 'bank_transfer',
      bank: 'BRI',
      account_number: '002101000123',
      account_name: 'Toko Voucher Jaya',
    })
    const shop = await createReseller(app)
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/balance',
      headers: shop.headers,
      payload: { amount: 125_000, channel: 'BRI' },
    })
    const topup = res.json().data
    const page = await browser!.newPage()
    try {
      await page.goto(topup.payment_url)
      const field = (name: string) => page.locator(`[data-field="${name}"]`).innerText()
      expect(await field('total')).toBe(`Rp ${topup.total.toLocaleString('id-ID')}`)
      expect(await page.locator('[data-field="total"] .code').innerText()).toBe(
        String(topup.unique_code).padStart(3, '0').slice(-String(topup.unique_code).length),
      )
      expect(await field('account-number')).toContain('002101000123')
      expect(await page.locator(`button[data-copy="${topup.total}"]`).count()).toBe(1)
      expect(await page.locator('html').getAttribute('lang')).toBe('id')
      await Promise.all([page.waitForURL(topup.payment_url), page.click('#simulate')])
      expect(await page.locator('#outcome').innerText()).toContain('Lunas')
      expect(await page.locator('#simulate').count()).toBe(0)
    } finally {
      await page.close()
    }
    expect(await balanceOf(app, shop)).toBe(topup.total)
  })
})
