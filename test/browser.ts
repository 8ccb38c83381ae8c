import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium, type BrowserContext } from 'playwright-core'
import { afterAll } from 'vitest'

// Debian's Chromium, installed by .ci/run.
const EXECUTABLE = '/usr/bin/chromium'

/**
 * A headless Chromium with a fresh profile, closed after the file's tests. Outside CI a browser
 * that cannot start skips the file's tests (undefined, with a warning saying how to install it);
 * in CI it is a failure.
 */
export async function launchChromium(name: string, options: { viewport?: { width: number; height: number } } = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-chromium-`))
  let browser: BrowserContext | undefined
  try {
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: EXECUTABLE,
      headless: true,
      timeout: 60_000,
      ...options,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
  } catch (error) {
    if (process.env.CI) throw error
    console.warn(
      `${name} browser test skipped: Chromium cannot start at ${EXECUTABLE} (apt-get install -y --no-install-recommends chromium): ${(error as Error).message.split('\n')[0]}`,
    )
  }
  afterAll(async () => {
    await browser?.close()
    fs.rmSync(profile, { recursive: true, force: true })
  })
  return browser
}
