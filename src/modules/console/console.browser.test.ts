import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { launchChromium } from '../../../test/browser.js'
import { buy } from '../../../test/factory-orders.js'
import { freePort } from '../../../test/server-process.js'

// The console driven in a real headless Chromium (Debian's, installed by .ci/run).
// CONSOLE_SCREENSHOTS=1 also writes docs/console/*.png for the README.
const SHOTS = process.env.CONSOLE_SCREENSHOTS === '1' ? path.resolve('docs/console') : undefined

const browser = await launchChromium('console', { viewport: { width: 1280, height: 800 } })

const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true })
}
const text = async (page: Page, selector: string) => (await page.locator(selector).first().textContent())?.trim()
const submit = (page: Page, form: string) => Promise.all([page.waitForLoadState('load'), page.locator(`${form} button`).first().click()])

describe('the operator console in a browser', () => {
  it.skipIf(!browser)('signs in, runs a store through its pages, and signs out', { timeout: 180_000 }, async () => {
    if (SHOTS) fs.mkdirSync(SHOTS, { recursive: true })
    const port = await freePort()
    const { app } = await createTestApp({ PUBLIC_URL: `http://127.0.0.1:${port}` })
    await app.listen({ port, host: '127.0.0.1' })
    const base = `http://127.0.0.1:${port}`
    const page = await browser!.newPage()
    try {
      await page.goto(`${base}/console`)
      expect(new URL(page.url()).pathname).toBe('/console/sign-in')
      await page.fill('input[name=token]', ADMIN_TOKEN)
      await Promise.all([page.waitForURL(`${base}/console`), page.click('#sign-in')])
      expect(await text(page, '#sales-today b')).toBe('Rp 0')

      // A reseller, its key shown once, and a credit.
      await page.goto(`${base}/console/resellers`)
      await page.fill('#create-reseller input[name=name]', 'Toko Maju')
      await submit(page, '#create-reseller')
      const apiKey = (await text(page, '#api-key'))!
      expect(apiKey).toMatch(/^rk_/)
      await page.click('text=Go to the reseller')
      const resellerUrl = page.url()
      await page.fill('#adjust input[name=amount]', '200000')
      await page.fill('#adjust input[name=reason]', 'opening deposit')
      await submit(page, '#adjust')
      expect(await text(page, '#balance')).toBe('Rp 200.000')

      // A category and a product, then an auto item under them from the product's page.
      await page.goto(`${base}/console/categories`)
      await page.fill('#create-category input[name=name]', 'Vouchers')
      await submit(page, '#create-category')
      expect(await text(page, '#category-name')).toBe('Vouchers')
      await page.fill('#create-product input[name=name]', 'Steam Wallet')
      await submit(page, '#create-product')
      expect(await text(page, '#product-name')).toBe('Steam Wallet')
      const productUrl = page.url()
      await page.fill('#create-item input[name=name]', 'IDR 12.000')
      await page.fill('#create-item input[name=price]', '15000')
      await submit(page, '#create-item')
      const itemId = Number(/\/console\/items\/(\d+)/.exec(page.url())?.[1])
      expect(itemId).toBeGreaterThan(0)
      expect(await page.locator('h1').first().textContent()).toContain('Steam Wallet')
      await page.goto(productUrl)
      expect(await page.locator('#product-items').textContent()).toContain('IDR 12.000')
      await page.goto(`${base}/console/items?category=Vouchers`)
      expect(await page.locator('#items').textContent()).toContain('IDR 12.000')

      // Licenses uploaded as a file (one twice), then more pasted (one already in stock).
      await page.goto(`${base}/console/items/${itemId}`)
      await page.setInputFiles('#license-file', {
        name: 'licenses.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('STEAM-AAAA\r\nSTEAM-BBBB\r\nSTEAM-AAAA\r\n'),
      })
      await expect.poll(() => page.inputValue('#licenses')).toContain('STEAM-BBBB')
      await submit(page, '#add-licenses')
      expect(await text(page, '#licenses-added')).toBe('2 licenses added, 1 duplicate skipped.')
      expect(await text(page, '#stock')).toBe('2')
      await page.fill('#licenses', 'STEAM-CCCC\nSTEAM-AAAA\n')
      await submit(page, '#add-licenses')
      expect(await text(page, '#licenses-added')).toBe('1 license added, 1 duplicate skipped.')
      expect(await text(page, '#stock')).toBe('3')
      // And a manual item from the catalog's own form.
      const manualId = await createItemThroughForm(page, base, {
        product_name: 'Netflix',
        name: '1 month',
        price: '40000',
        order_process: 'manual',
        stock: '10',
      })

      // A purchase through the API shows on the overview.
      const headers = { 'x-apikey': apiKey }
      const shop = { id: 0, apiKey, headers }
      expect((await buy(app, shop, 'web-1', [{ item_id: itemId, quantity: 1 }])).statusCode).toBe(200)
      await page.goto(`${base}/console`)
      expect(await text(page, '#sales-today b')).toBe('Rp 15.000')
      expect(await page.locator('#sales-today').innerText()).toBe('Sales today\nRp 15.000\n1 order')

      // A manual line: queued on the overview, sent from the order page, the order completes.
      const manual = (await buy(app, shop, 'web-2', [{ item_id: manualId, quantity: 1, note: 'buyer@example.com' }])).json().data
      await page.goto(`${base}/console`)
      expect(await text(page, '#queue-manual b')).toBe('1')
      await shot(page, 'overview')
      await Promise.all([page.waitForLoadState('load'), page.click('#queue-manual')])
      await Promise.all([page.waitForLoadState('load'), page.click(`text=${manual.invoice}`)])
      // The order names its reseller, and each label sits apart from its value.
      expect(await text(page, '#order-reseller')).toBe('Toko Maju')
      expect(await page.locator('.card').first().innerText()).toBe(`ref_id\nweb-2`)
      await shot(page, 'order')
      if (SHOTS) {
        await page.setViewportSize({ width: 390, height: 844 })
        await shot(page, 'order-phone')
        await page.setViewportSize({ width: 1280, height: 800 })
      }
      await page.fill('form[action$="/send"] input[name=product_license]', 'netflix-login:secret')
      await submit(page, 'form[action$="/send"]')
      expect(await text(page, '#order-status')).toBe('completed')

      // Another, canceled: the refund appears in the reseller's mutations.
      const second = (await buy(app, shop, 'web-3', [{ item_id: manualId, quantity: 2 }])).json().data
      await page.goto(`${base}/console/orders?ref=web-3`)
      expect(await text(page, '#order-status')).toBe('paid')
      await page.fill('#cancel input[name=reason]', 'out of accounts')
      await submit(page, '#cancel')
      expect(await text(page, '#order-status')).toBe('canceled')
      await page.goto(resellerUrl)
      expect(await page.locator('#mutations').textContent()).toContain(`Refund ${second.invoice}: out of accounts`)
      expect(await text(page, '#balance')).toBe(`Rp ${(200_000 - 15_000 - 40_000).toLocaleString('id-ID')}`)
      await shot(page, 'reseller')
      if (SHOTS) {
        await page.setViewportSize({ width: 390, height: 844 })
        await shot(page, 'reseller-phone')
        await page.setViewportSize({ width: 1280, height: 800 })
      }
      if (SHOTS) {
        await page.goto(`${base}/console/items`)
        await shot(page, 'catalog')
        await page.setViewportSize({ width: 390, height: 844 })
        await page.goto(`${base}/console`)
        await shot(page, 'overview-phone')
      }

      // Signed out, the console answers nothing but the sign-in page.
      await Promise.all([page.waitForURL(`${base}/console/sign-in`), page.click('#sign-out')])
      await page.goto(resellerUrl)
      expect(new URL(page.url()).pathname).toBe('/console/sign-in')
    } finally {
      await page.close()
    }
  })
})

async function createItemThroughForm(page: Page, base: string, fields: Record<string, string>): Promise<number> {
  await page.goto(`${base}/console/items`)
  for (const [name, value] of Object.entries(fields)) {
    if (name === 'order_process') await page.selectOption('#create-item select[name=order_process]', value)
    else await page.fill(`#create-item input[name=${name}]`, value)
  }
  await submit(page, '#create-item')
  const id = Number(/\/console\/items\/(\d+)/.exec(page.url())?.[1])
  expect(id).toBeGreaterThan(0)
  return id
}
