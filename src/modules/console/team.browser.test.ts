import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { launchChromium } from '../../../test/browser.js'
import { freePort } from '../../../test/server-process.js'
import { totpCode, totpStep } from '../team/index.js'

// The operator team's way in, in a real headless Chromium (docs/design.md §11d): the first owner
// made with the admin token, their first sign-in through the QR enrolment, then a sign-in with a code.

const browser = await launchChromium('console-team', { viewport: { width: 1280, height: 800 } })
const OWNER = { email: 'owner@team-browser.example', name: 'Dewi', password: 'owner password 1' }

describe('the console team in a browser', () => {
  it.skipIf(!browser)(
    'makes the first owner, enrols them from the QR page, and signs them in with a code',
    { timeout: 180_000 },
    async () => {
      const port = await freePort()
      const { app } = await createTestApp({ PUBLIC_URL: `http://127.0.0.1:${port}` })
      await app.listen({ port, host: '127.0.0.1' })
      const base = `http://127.0.0.1:${port}`
      const page = await browser!.newPage()
      try {
        // The admin token on a store without operators is asked for the first owner.
        await page.goto(`${base}/console/sign-in`)
        await page.fill('input[name=token]', ADMIN_TOKEN)
        await Promise.all([page.waitForURL(`${base}/console`), page.click('#sign-in')])
        await Promise.all([page.waitForURL(`${base}/console/first-owner`), page.click('#create-first-owner')])
        await page.fill('#first-owner input[name=email]', OWNER.email)
        await page.fill('#first-owner input[name=name]', OWNER.name)
        await page.fill('#first-owner input[name=password]', OWNER.password)
        await page.fill('#first-owner input[name=password_again]', OWNER.password)
        await Promise.all([page.waitForURL(`${base}/console/sign-in?done=owner`), page.click('#create-owner')])
        expect(await page.locator('#notice').textContent()).toContain('First owner created')

        // Their first sign-in goes to the enrolment: a QR code drawn here, and the secret typed out.
        await page.fill('#sign-in-form input[name=email]', OWNER.email)
        await page.fill('#sign-in-form input[name=password]', OWNER.password)
        await Promise.all([page.waitForURL(`${base}/console/enrol`), page.click('#sign-in-password')])
        expect(await page.locator('#qr svg').isVisible()).toBe(true)
        const secret = (await page.locator('#totp-secret').textContent())!.replace(/\s/g, '')
        expect(secret).toMatch(/^[A-Z2-7]{32}$/)
        // Nothing else opens until it is done.
        await page.goto(`${base}/console/resellers`)
        expect(new URL(page.url()).pathname).toBe('/console/enrol')
        await page.fill('#enrol-form input[name=code]', totpCode(secret, totpStep(new Date())))
        await Promise.all([page.waitForLoadState('load'), page.click('#confirm-enrol')])
        const codes = await page.locator('#recovery-codes li').allTextContents()
        expect(codes).toHaveLength(10)
        await Promise.all([page.waitForURL(`${base}/console`), page.click('#saved-codes')])
        expect(await page.locator('#signed-in-as').textContent()).toBe(`${OWNER.email} · owner`)
        expect(await page.locator('header nav a[href="/console/team"]').count()).toBe(1)
        await page.goto(`${base}/console/team`)
        expect(await page.locator('#operators').textContent()).toContain(OWNER.email)

        // Signed out, and in again: password, then the app's code (the next step's: the enrolment used this one).
        await Promise.all([page.waitForURL(`${base}/console/sign-in`), page.click('#sign-out')])
        await page.fill('#sign-in-form input[name=email]', OWNER.email)
        await page.fill('#sign-in-form input[name=password]', OWNER.password)
        await Promise.all([page.waitForURL(`${base}/console/sign-in/code`), page.click('#sign-in-password')])
        await page.fill('#code-form input[name=code]', totpCode(secret, totpStep(new Date()) + 1))
        await Promise.all([page.waitForURL(`${base}/console`), page.click('#check-code')])
        expect(await page.locator('#signed-in-as').textContent()).toBe(`${OWNER.email} · owner`)
      } finally {
        await page.close()
      }
    },
  )
})
