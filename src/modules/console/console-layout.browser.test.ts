import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { launchChromium } from '../../../test/browser.js'
import { admin, createAutoItem, createItem, createReseller } from '../../../test/factory.js'
import { buy } from '../../../test/factory-orders.js'
import { freePort } from '../../../test/server-process.js'
import { operatorWithToken } from '../../../test/team.js'

// Every console page at a desktop and a phone size, empty and then with a store in it: what a
// person would notice (sideways scrolling, labels run into values, cut placeholders, raw ISO times).
// CONSOLE_SURVEY=<dir> also writes a screenshot of each page at each size there, to look at.
const SHOTS = process.env.CONSOLE_SURVEY ? path.resolve(process.env.CONSOLE_SURVEY) : undefined
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } }

const browser = await launchChromium('console-layout')

/**
 * Run in the page: what a person would notice. Kept free of imports and helpers outside its body,
 * since Playwright sends its source text to the browser.
 */
function layoutProblems(): string[] {
  const problems: string[] = []
  const root = document.documentElement
  if (root.scrollWidth > window.innerWidth) problems.push(`scrolls sideways: ${root.scrollWidth} > ${window.innerWidth}`)
  const text = document.body.innerText
  const iso = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}[^\s]*/.exec(text)
  if (iso) problems.push(`raw ISO time: ${iso[0]}`)
  const json = /[{[]\s*"[^"]+"\s*:/.exec(text)
  if (json) problems.push(`raw JSON: ${json[0]}`)
  const plural = /(?<![\d.,])1 (resellers|orders|top-ups|items|categories|products|entries|deliveries|requests|licenses|duplicates)\b/.exec(
    text,
  )
  if (plural) problems.push(`plural of one: ${plural[0]}`)
  // A label and its value: the label's box ends before the value starts (its own line, or a gap).
  for (const label of document.querySelectorAll<HTMLElement>('.card > small, dt')) {
    const value = label.nextSibling
    if (!value || !label.innerText.trim()) continue
    const range = document.createRange()
    range.selectNodeContents(value)
    const [first] = [...range.getClientRects()].filter((r) => r.width > 0)
    const box = label.getBoundingClientRect()
    if (first && first.top < box.bottom - 2 && first.left < box.right + 4) problems.push(`label runs into its value: ${label.innerText}`)
  }
  // A placeholder wider than its box is cut off mid-word.
  const ruler = document.createElement('canvas').getContext('2d')!
  for (const input of document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[placeholder], textarea[placeholder]')) {
    if (!input.offsetParent) continue
    const style = getComputedStyle(input)
    ruler.font = style.font
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
    if (ruler.measureText(input.placeholder).width > room + 1) problems.push(`placeholder cut: ${input.placeholder}`)
  }
  // "Rp" stays on the line of its amount.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.textContent!.matchAll(/Rp\s[\d.]+/g)) {
      const range = document.createRange()
      range.setStart(node, m.index)
      range.setEnd(node, m.index + m[0].length)
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)))
      if (lines.size > 1) problems.push(`"Rp" wraps away from its amount: ${m[0]}`)
    }
  }
  // A table with nothing under its header says so, and what fills it.
  for (const table of document.querySelectorAll('main table')) {
    if (table.querySelectorAll('tr').length < 2) problems.push(`empty table without a word: ${table.id || table.closest('[id]')?.id}`)
  }
  return problems
}

/** Each page at each size: its problems, keyed by size and path (an empty list is a clean page). */
async function survey(page: Page, base: string, paths: string[], tag: string): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {}
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport)
    for (const p of paths) {
      const res = await page.goto(`${base}${p}`)
      const problems = await page.evaluate(layoutProblems)
      if (res && res.status() >= 500) problems.push(`answered ${res.status()}`)
      if (problems.length) found[`${size} ${p}`] = problems
      if (SHOTS) {
        const name = `${tag}-${size}-${p.replace(/^\/(console\/?)?/, '').replace(/[^a-z0-9]+/gi, '_') || 'overview'}.png`
        await page.screenshot({ path: path.join(SHOTS, name), fullPage: true })
      }
    }
  }
  return found
}

describe('the console laid out for a person, at desktop and phone size', () => {
  it.skipIf(!browser)(
    'has no sideways scrolling, run-together labels, cut placeholders, raw times or JSON',
    { timeout: 300_000 },
    async () => {
      if (SHOTS) fs.mkdirSync(SHOTS, { recursive: true })
      const port = await freePort()
      const { app, ctx } = await createTestApp({ PUBLIC_URL: `http://127.0.0.1:${port}` })
      await app.listen({ port, host: '127.0.0.1' })
      const base = `http://127.0.0.1:${port}`
      const page = await browser!.newPage()
      try {
        // Before signing in: the sign-in page, and the icon browsers ask every site for.
        expect.soft(await survey(page, base, ['/console/sign-in'], 'empty')).toEqual({})
        const icon = await page.goto(`${base}/favicon.ico`)
        expect.soft([icon?.status(), icon?.headers()['content-type']]).toEqual([200, 'image/svg+xml'])
        await page.goto(`${base}/console/sign-in`)
        expect
          .soft(await page.evaluate(() => document.querySelector('link[rel=icon]')?.getAttribute('href')))
          .toMatch(/^data:image\/svg\+xml,/)
        await page.fill('input[name=token]', ADMIN_TOKEN)
        await Promise.all([page.waitForURL(`${base}/console`), page.click('#sign-in')])

        // An empty store: every list says it is empty and what fills it.
        const lists = ['/console', '/console/resellers', '/console/orders', '/console/dispatches', '/console/items', '/console/categories']
        const more = ['/console/products', '/console/providers', '/console/topups', '/console/channels', '/console/webhook-deliveries']
        const supply = ['/console/suppliers', '/console/pricing', '/console/margin', '/console/margin-watch', '/console/audit']
        const team = ['/console/team', '/console/me']
        expect.soft(await survey(page, base, [...lists, ...more, ...supply, ...team, '/console/first-owner'], 'empty')).toEqual({})
        await page.goto(`${base}/console`)
        expect(await page.locator('#first-steps').innerText()).toContain('Add something to sell')

        // A store with a reseller, a catalog, orders (one with a manual line to send) and a top-up.
        const shop = await createReseller(app, { name: 'Toko Maju Jaya Sentosa', balance: 1_250_000 })
        await admin(app, 'PATCH', `/resellers/${shop.id}`, { email: 'owner.tokomaju@example.com' })
        await admin(app, 'POST', '/channels', { code: 'QRIS', name: 'QRIS Nasional', type: 'qris', fee_flat: 750, fee_percent: 0.7 })
        const auto = await createAutoItem(app, 3, {
          category: 'Voucher Game',
          product_name: 'Steam Wallet',
          name: 'IDR 120.000',
          price: 125_000,
        })
        const manual = await createItem(app, {
          category: 'Streaming',
          product_name: 'Netflix Premium',
          name: '1 bulan',
          order_process: 'manual',
          stock: 5,
        })
        expect((await buy(app, shop, 'nc-auto-1', [{ item_id: auto.id, quantity: 1 }])).statusCode).toBe(200)
        const order = (await buy(app, shop, 'nc-man-1', [{ item_id: manual.id, quantity: 1, note: 'buyer@example.com' }])).json().data
        const topup = await app.inject({
          method: 'POST',
          url: '/api/v1/balance',
          headers: shop.headers,
          payload: { amount: 1_250_000, channel: 'QRIS', ref_id: 'layout-1' },
        })
        expect(topup.statusCode).toBe(200)
        // And one the gateway reported paid with another total, waiting in the operator's review queue.
        const disputed = await app.inject({
          method: 'POST',
          url: '/api/v1/balance',
          headers: shop.headers,
          payload: { amount: 50_000, channel: 'QRIS' },
        })
        await ctx.db
          .updateTable('topups')
          .set({ status: 'review', paid_total: 1, review_reason: 'paid total 1 is not the total 51.100' })
          .where('reference', '=', disputed.json().data.reference)
          .execute()
        const orderId = Number(/\/console\/orders\/(\d+)/.exec((await page.goto(`${base}/console/orders?ref=nc-man-1`))!.url())?.[1])
        const r = `/console/resellers/${shop.id}`
        const category = (await admin(app, 'GET', '/categories?search=Streaming'))[0].id
        const operator = await operatorWithToken(ctx, 'support')
        const filled = [
          ...[...lists, ...more, ...supply, ...team, `/console/team/${operator.id}`],
          ...[r, `${r}/mutations`, `${r}/audit`, `${r}/deliveries`, `/console/orders/${orderId}`, `/console/orders/999999`],
          ...[`/console/items/${manual.id}`, `/console/items/${auto.id}`, `/console/categories/${category}`],
          ...[`/console/products/${manual.product_id}`, '/console/channels/QRIS', `/sim/pay/${topup.json().data.reference}`],
        ]
        expect.soft(await survey(page, base, filled, 'filled')).toEqual({})

        await page.goto(`${base}/console`)
        expect(await page.locator('#first-steps').count()).toBe(0)

        // Resellers go by name in the order list and on an order; counts say "1 reseller", not "1 resellers".
        await page.goto(`${base}/console/orders/${orderId}`)
        expect(await page.locator('#order-reseller').innerText()).toBe('Toko Maju Jaya Sentosa')
        expect(await page.locator('#order-ref-id').innerText()).toBe('nc-man-1')
        expect(await page.locator('body').innerText()).toContain(order.invoice)
        await page.goto(`${base}/console/orders`)
        expect(await page.locator('#orders').innerText()).toContain('Toko Maju Jaya Sentosa')
        expect(await page.locator('#orders').innerText()).not.toMatch(/#\d/)
        await page.goto(`${base}/console/resellers`)
        expect(await page.locator('main').innerText()).toMatch(/^1 reseller$/m)
        await page.goto(`${base}/console/topups`)
        expect(await page.locator('main').innerText()).toContain('2 top-ups')
        await page.goto(`${base}/console/topups?status=pending`)
        expect(await page.locator('main').innerText()).toMatch(/\b1 top-up\b(?!s)/)
        expect(await page.locator('#topups').innerText()).toContain('Toko Maju Jaya Sentosa')

        // In Bahasa Indonesia, whose words run longer: the same pages, laid out as well.
        await page.goto(`${base}/console?lang=id`)
        expect(await page.locator('h1').innerText()).toBe('Ringkasan')
        expect.soft(await survey(page, base, filled, 'filled-id')).toEqual({})
      } finally {
        await page.close()
      }
    },
  )
})
