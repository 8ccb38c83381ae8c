import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../../test/app.js'
import { launchChromium } from '../../../test/browser.js'
import { admin, createReseller } from '../../../test/factory.js'
import { balanceOf } from '../../../test/factory-orders.js'
import { freePort } from '../../../test/server-process.js'
import { viewHelpers } from '../../http/page-format.js'

// The simulator's pay page clicked in a real headless Chromium (Debian's, installed by .ci/run).

const browser = await launchChromium('pay-page')

describe('the simulator pay page in a browser', () => {
  it.skipIf(!browser)('shows the top-up, and its Pay button credits the balance', async () => {
    const port = await freePort()
    const { app } = await createTestApp({ PUBLIC_URL: `http://127.0.0.1:${port}` })
    await app.listen({ port, host: '127.0.0.1' })
    await admin(app, 'POST', '/channels', { code: 'QRIS', name: 'QRIS Nasional', type: 'qris', fee_flat: 750, fee_percent: 0.7 })
    const shop = await createReseller(app)
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/balance',
      headers: shop.headers,
      payload: { amount: 125_000, channel: 'QRIS', ref_id: 'browser-1' },
    })
    const topup = res.json().data
    expect(topup.payment_url.startsWith(`http://127.0.0.1:${port}/sim/pay/`)).toBe(true)

    const page = await browser!.newPage()
    try {
      await page.goto(topup.payment_url)
      const field = (name: string) => page.locator(`[data-field="${name}"]`).innerText()
      expect(await field('amount')).toBe('Rp 125.000')
      expect(await field('fee')).toBe(`Rp ${(750 + 875).toLocaleString('id-ID')}`)
      expect(await field('total-to-pay')).toBe(`Rp ${(125_000 + 750 + 875).toLocaleString('id-ID')}`)
      expect(await field('channel')).toBe('QRIS Nasional (QRIS)')
      // The expiry on the console's clock (LEADERBOARD_TZ, Asia/Jakarta by default), the instant kept for machines.
      const jakarta = viewHelpers('Asia/Jakarta').time(topup.expires_at)
      expect(await field('expires-at')).toBe(`${jakarta} WIB`)
      expect(await page.locator('[data-field="expires-at"] time').getAttribute('datetime')).toBe(topup.expires_at)
      expect(await page.locator('body').innerText()).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/)
      expect(await page.locator('#pay').innerText()).toBe(`Bayar Rp ${(125_000 + 750 + 875).toLocaleString('id-ID')}`)
      expect(await balanceOf(app, shop)).toBe(0)
      await Promise.all([page.waitForURL(topup.payment_url), page.click('#pay')])
      expect(await page.locator('#outcome').textContent()).toBe('Dibayar: saldo sudah bertambah.')
      expect(await field('status')).toBe('dibayar')
      expect(await page.locator('#back-to-dashboard').getAttribute('href')).toBe(`/dashboard/transactions/${topup.invoice}`)
    } finally {
      await page.close()
    }
    expect(await balanceOf(app, shop)).toBe(125_000)
  })
})
